/**
 * The rows of the encryption key hierarchy (migration 0200), as the store
 * reads and writes them: timestamps as ISO-8601 text in UTC.
 */

/** The service's key types (`EncryptionKeyType`); `environment-root-key` is the configured key, never stored. */
export type EncryptionKeyType = 'customer-provided-root-key' | 'environment-root-key' | 'tenant-master-key' | 'tenant-encryption-key';
export type StoredEncryptionKeyType = Exclude<EncryptionKeyType, 'environment-root-key'>;

/** The service's key states (`EncryptionKeyState`). */
export type EncryptionKeyState = 'pre-activation' | 'active' | 'deactivated' | 'destroyed';

export interface EncryptionKeyRow {
  tenant_id: string;
  /** A UUID. */
  kid: string;
  type: StoredEncryptionKeyType;
  /**
   * `pre-activation`: opens values but seals none yet (a rekey's new keys
   * while every process learns them), or a customer-provided root key
   * awaiting its material; `active`: the one that seals (wraps); `deactivated`:
   * opens what it sealed until a rekey has moved all of it; `destroyed`: its
   * material is gone.
   */
  state: EncryptionKeyState;
  /** The key that wraps this one: the environment root key's kid, a customer-provided root key, or a tenant master key. */
  parent_kid: string | null;
  /**
   * The key material wrapped under its parent (AES-256-GCM, bound to the
   * tenant, the type and the kid); a customer-provided root key's is wrapped
   * under the environment root key. Null once destroyed, or before import.
   */
  wrapped_key: string | null;
  /** A customer-provided root key awaiting import: the private half of its wrapping key (PKCS#8), wrapped under the environment root key. */
  wrapping_key_enc: string | null;
  /** The public wrapping key (PEM) handed out for an import. */
  public_key: string | null;
  created_at: string;
  updated_at: string;
}
