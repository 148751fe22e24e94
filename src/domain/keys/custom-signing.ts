/**
 * Custom signing keys: public keys a tenant brings (a JWKS), published after
 * the tenant's own keys in /.well-known/jwks.json, so that relying parties
 * accept tokens the tenant signs elsewhere with the private halves. Gatehouse
 * never holds the private keys, so it cannot sign with them, and it does not
 * accept tokens signed by them as its own (they are not verification keys of
 * the keyring). Implemented by src/storage/kysely/custom-signing-keys.ts.
 */

/** A custom public key as the document's `CustomSigningKeyJWK` describes it. */
export interface CustomSigningJwk {
  kty: 'RSA' | 'EC';
  kid: string;
  use?: 'sig';
  key_ops?: 'verify'[];
  alg?: string;
  n?: string;
  e?: string;
  crv?: string;
  x?: string;
  y?: string;
  x5u?: string;
  x5c?: string[];
  x5t?: string;
  'x5t#S256'?: string;
}

export interface CustomSigningKeyStore {
  /** The tenant's keys, or undefined when it has none. */
  get(tenantId: string): Promise<CustomSigningJwk[] | undefined>;
  /** Creates or replaces the tenant's keys. */
  set(tenantId: string, keys: CustomSigningJwk[], at: string): Promise<void>;
  /** Deletes the tenant's keys; false when there were none. */
  delete(tenantId: string): Promise<boolean>;
}
