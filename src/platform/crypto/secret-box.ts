/**
 * Secrets at rest: AES-256-GCM (ARCHITECTURE "Data"), under a key hierarchy
 * (docs/operations/encryption-keys.md):
 *
 * - the environment root key (GATEHOUSE_MASTER_KEY, else the key file) wraps
 *   each tenant's master key and seals what belongs to no tenant (paging
 *   checkpoints, login state handed to browsers);
 * - a tenant's encryption key (a data key, wrapped by the tenant's master key)
 *   seals that tenant's secrets at rest once the tenant has one.
 *
 * Two formats, both base64url parts:
 *
 * - `v1.<iv>.<ciphertext+tag>`: sealed under the environment root key. Every
 *   value written before tenants had keys of their own is of this form; it
 *   stays readable as the initial key version.
 * - `v2.<kid>.<iv>.<ciphertext+tag>`: sealed under the key `kid` names (a
 *   tenant encryption key), so a rekey can tell which values still need
 *   moving without opening them, and a retired key is known to seal nothing.
 *
 * Each value is bound to what it belongs to through GCM's additional
 * authenticated data (e.g. `client_secret:<tenant>:<client_id>`), so a
 * ciphertext copied onto another row does not decrypt.
 *
 * The tenant keys held here are loaded by the domain's encryption keyring
 * (src/domain/encryption/keyring.ts); this module only uses them.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const IV_BYTES = 12;
const TAG_BYTES = 16;
const PART = /^[A-Za-z0-9_-]+$/;

/** A sealed value names a key this process does not hold (retired, or not loaded yet). */
export class UnknownKeyVersion extends Error {
  constructor(readonly kid: string) {
    super(`sealed value names the key version ${kid}, which this process does not hold`);
  }
}

function sealWith(key: Buffer, plaintext: string | Buffer, context: string): { iv: string; body: string } {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
  return { iv: iv.toString('base64url'), body: body.toString('base64url') };
}

function openWith(key: Buffer, ivPart: string, bodyPart: string, context: string): Buffer {
  const iv = Buffer.from(ivPart, 'base64url');
  const body = Buffer.from(bodyPart, 'base64url');
  if (body.length < TAG_BYTES) throw new Error('sealed value is too short');
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  decipher.setAAD(Buffer.from(context, 'utf8'));
  decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
  return Buffer.concat([decipher.update(body.subarray(0, body.length - TAG_BYTES)), decipher.final()]);
}

/** Wraps key material under a key-encryption key (AES-256-GCM bound to `context`): `<iv>.<ciphertext+tag>`. */
export function wrapKey(kek: Buffer, material: Buffer, context: string): string {
  const { iv, body } = sealWith(kek, material, context);
  return `${iv}.${body}`;
}

/** The key material `wrapKey` wrapped; throws when `kek` or `context` is not the one it was wrapped with. */
export function unwrapKey(kek: Buffer, wrapped: string, context: string): Buffer {
  const [iv, body, extra] = wrapped.split('.');
  if (iv === undefined || body === undefined || extra !== undefined) throw new Error('wrapped key has an unknown format');
  return openWith(kek, iv, body, context);
}

/** A UUID-shaped identifier derived from a key, so the configured root key has a stable `kid` without being stored. */
function derivedKid(key: Buffer): string {
  const h = createHash('sha256').update('gatehouse environment-root-key kid\0').update(key).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

interface TenantKeys {
  /** kid → key material of the tenant's encryption keys this process may open with. */
  readonly keys: ReadonlyMap<string, Buffer>;
  /** The key new values are sealed under; undefined: the environment root key (v1). */
  readonly sealing: string | undefined;
}

export class SecretBox {
  readonly #root: Buffer;
  /** The environment root key's `kid` (derived from it). */
  readonly rootKid: string;
  readonly #tenants = new Map<string, TenantKeys>();
  /** kid → key, for opening: a v2 value names its key, not its tenant. */
  readonly #byKid = new Map<string, Buffer>();

  constructor(key: Buffer) {
    if (key.length !== 32) throw new Error('the master key must be 32 bytes');
    this.#root = key;
    this.rootKid = derivedKid(key);
  }

  /**
   * Replaces what this process holds of a tenant's encryption keys: the keys
   * values may be opened with, and the one new values are sealed under
   * (undefined: the environment root key, the initial version).
   */
  setTenantKeys(tenantId: string, keys: ReadonlyMap<string, Buffer>, sealing: string | undefined): void {
    if (sealing !== undefined && !keys.has(sealing)) throw new Error(`the sealing key ${sealing} is not among the tenant's keys`);
    const previous = this.#tenants.get(tenantId);
    for (const kid of previous?.keys.keys() ?? []) this.#byKid.delete(kid);
    for (const [kid, key] of keys) {
      if (key.length !== 32) throw new Error(`the encryption key ${kid} is not 32 bytes`);
      this.#byKid.set(kid, key);
    }
    this.#tenants.set(tenantId, { keys: new Map(keys), sealing });
  }

  /** The kid new values of the tenant are sealed under: its active encryption key, or the environment root key's. */
  sealingKid(tenantId: string): string {
    return this.#tenants.get(tenantId)?.sealing ?? this.rootKid;
  }

  /**
   * Seals `plaintext` bound to `context`. With `tenantId`, under the tenant's
   * active encryption key when it has one (v2); without, or before the tenant
   * has keys of its own, under the environment root key (v1).
   */
  seal(plaintext: string | Buffer, context: string, tenantId?: string): string {
    const kid = tenantId === undefined ? undefined : this.#tenants.get(tenantId)?.sealing;
    if (kid === undefined) {
      const { iv, body } = sealWith(this.#root, plaintext, context);
      return `v1.${iv}.${body}`;
    }
    const { iv, body } = sealWith(this.#byKid.get(kid)!, plaintext, context);
    return `v2.${kid}.${iv}.${body}`;
  }

  /** The kid of the key a sealed value names (the environment root key's for v1); undefined when it is not a sealed value. */
  kidOf(sealed: string): string | undefined {
    const parts = sealed.split('.');
    if (parts[0] === 'v1' && parts.length === 3) return this.rootKid;
    if (parts[0] === 'v2' && parts.length === 4 && PART.test(parts[1]!)) return parts[1];
    return undefined;
  }

  open(sealed: string, context: string): Buffer {
    const parts = sealed.split('.');
    if (parts[0] === 'v1' && parts.length === 3) return openWith(this.#root, parts[1]!, parts[2]!, context);
    if (parts[0] === 'v2' && parts.length === 4) {
      const key = this.#byKid.get(parts[1]!);
      if (key === undefined) throw new UnknownKeyVersion(parts[1]!);
      return openWith(key, parts[2]!, parts[3]!, context);
    }
    throw new Error('sealed value has an unknown format');
  }

  openString(sealed: string, context: string): string {
    return this.open(sealed, context).toString('utf8');
  }

  /** Wraps key material under the environment root key (a tenant master key, a customer-provided root key). */
  wrapUnderRoot(material: Buffer, context: string): string {
    return wrapKey(this.#root, material, context);
  }

  unwrapUnderRoot(wrapped: string, context: string): Buffer {
    return unwrapKey(this.#root, wrapped, context);
  }
}
