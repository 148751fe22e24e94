/**
 * Tenant signing keys: RS256, 2048-bit, the private part sealed at rest. As
 * the service does, a tenant has a `current` key that signs and a `next` key,
 * both made with the tenant and both published in the JWKS, so that relying
 * parties know the next key before it signs anything. A rotation makes the
 * next key current and the current one `previous` (still published, still
 * verifying) and makes a new next key; revoking a previous key takes it out
 * of the JWKS and of verification. Tenants made before rotation existed have
 * no next key until their first rotation.
 *
 * The keyring caches each tenant's imported keys and its serialised JWKS so
 * the token endpoint and the JWKS endpoint do no per-request key parsing or
 * database work; rotations and revocations are configuration writes
 * (src/app/configuration-writes.ts), so every process drops its copy.
 */
import { createPrivateKey, createPublicKey, generateKeyPair, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import { clientSigningKey, createSigningCertificate, toPem, x5tOf } from '../../platform/crypto/certificates.js';
import { newKeyId } from '../../platform/crypto/ids.js';
import type { SecretBox } from '../../platform/crypto/secret-box.js';
import type { SigningKeyRow, SigningKeyStatus } from '../rows.js';
import type { SigningKeyStore } from './store.js';
import type { CustomSigningJwk, CustomSigningKeyStore } from './custom-signing.js';
import { isoAt } from '../../platform/clock.js';

const generateKeyPairAsync = promisify(generateKeyPair);

export const SIGNING_ALG = 'RS256';

/**
 * ID tokens of clients with a FAPI compliance level are signed PS256 (FAPI
 * 1.0 Advanced §8.6, FAPI 2.0 §5.4: not RS256) with the same RSA keys, which
 * the JWKS publishes a second time under `{kid}-ps256` with that `alg`, so
 * that clients selecting keys by `alg` find them.
 */
export const FAPI_SIGNING_ALG = 'PS256';
export const fapiKid = (kid: string) => `${kid}-ps256`;

/** The alg a tenant token with this kid must carry. */
export const algOfKid = (kid: string) => (kid.endsWith('-ps256') ? FAPI_SIGNING_ALG : SIGNING_ALG);

/** How long a tenant's keys are cached before they are read again (other processes may rotate). */
const CACHE_TTL_MS = 60_000;

/** A JWKS entry, members in the order the service serves them. */
export interface PublicJwk {
  kty: 'RSA';
  use: 'sig';
  n: string;
  e: string;
  kid: string;
  x5t: string;
  x5c: string[];
  alg: typeof SIGNING_ALG | typeof FAPI_SIGNING_ALG;
}

export interface TenantKeys {
  /** The key that signs new tokens. */
  signing: {
    kid: string;
    privateKey: KeyObject;
    /** The same key and its certificate as PEM, for the XML signatures of SAML (src/platform/xml/signatures.ts). */
    privateKeyPem: string;
    certificatePem: string;
  };
  /** Public keys by kid, for verification. Algorithm is always RS256. */
  verification: Map<string, KeyObject>;
  /** `GET /.well-known/jwks.json` body, serialised once. */
  jwksJson: string;
  /**
   * Clients' `signing_keys`: the certificate of the current key, as the service shows it (its
   * recordings show one). Made on first read: its PKCS#7 needs @peculiar/x509, which a process
   * that only signs tokens never loads.
   */
  readonly clientSigningKeys: { cert: string; pkcs7: string; subject: string }[];
  loadedAt: number;
}

export function signingKeyContext(tenantId: string, kid: string): string {
  return `signing_key:${tenantId}:${kid}`;
}

export class Keyring {
  readonly #cache = new Map<string, { keys: Promise<TenantKeys>; startedAt: number }>();

  constructor(
    private readonly store: SigningKeyStore,
    private readonly box: SecretBox,
    private readonly now: () => number,
    /** The tenant's custom public keys (./custom-signing.ts), published after its own. */
    private readonly customKeys?: Pick<CustomSigningKeyStore, 'get'>,
  ) {}

  /**
   * A new key for the tenant, as a row ready to insert (the private part sealed).
   * Tenant creation inserts it in the same transaction as the tenant.
   */
  async generate(tenantId: string, domain: string, status: Extract<SigningKeyStatus, 'current' | 'next'> = 'current'): Promise<SigningKeyRow> {
    const { privateKey, publicKey } = await generateKeyPairAsync('rsa', { modulusLength: 2048, publicExponent: 0x10001 });
    const kid = newKeyId();
    const certDer = await createSigningCertificate(privateKey, publicKey, domain);
    const jwk = publicKey.export({ format: 'jwk' }) as { n: string; e: string };
    return {
      tenant_id: tenantId,
      kid,
      private_key_enc: this.box.seal(privateKey.export({ type: 'pkcs8', format: 'pem' }) as string, signingKeyContext(tenantId, kid), tenantId),
      public_jwk: { kty: 'RSA', n: jwk.n, e: jwk.e },
      cert_der: certDer.toString('base64'),
      status,
      created_at: isoAt(this.now()),
      current_since: status === 'current' ? isoAt(this.now()) : null,
      current_until: null,
      revoked_at: null,
    };
  }

  /** Forget the cached keys of a tenant (after a change made by this process). */
  invalidate(tenantId: string): void {
    this.#cache.delete(tenantId);
  }

  /**
   * The tenant's keys, from cache when fresh. The decision to reload is taken
   * synchronously, so callers arriving together share one reload.
   */
  keys(tenantId: string): Promise<TenantKeys> {
    const cached = this.#cache.get(tenantId);
    if (cached && this.now() - cached.startedAt < CACHE_TTL_MS) return cached.keys;
    return this.#reload(tenantId);
  }

  /** A verification key by kid; an unknown kid triggers one reload (a key added by another process). */
  async verificationKey(tenantId: string, kid: string): Promise<KeyObject | undefined> {
    const keys = await this.keys(tenantId);
    const key = keys.verification.get(kid);
    if (key || this.now() - keys.loadedAt < 5_000) return key;
    const cached = this.#cache.get(tenantId);
    // Another caller may have started the reload already.
    const fresh = cached && cached.startedAt > keys.loadedAt ? await cached.keys : await this.#reload(tenantId);
    return fresh.verification.get(kid);
  }

  #reload(tenantId: string): Promise<TenantKeys> {
    const keys = Promise.all([this.store.listByTenant(tenantId), this.customKeys?.get(tenantId)]).then(([rows, custom]) => this.#build(tenantId, rows, custom ?? []));
    const entry = { keys, startedAt: this.now() };
    this.#cache.set(tenantId, entry);
    keys.catch(() => {
      if (this.#cache.get(tenantId) === entry) this.#cache.delete(tenantId);
    });
    return keys;
  }

  #build(tenantId: string, rows: SigningKeyRow[], custom: readonly CustomSigningJwk[]): TenantKeys {
    const current = rows.filter((r) => r.status === 'current').at(-1);
    if (!current) throw new Error(`tenant ${tenantId} has no current signing key`);
    const verification = new Map<string, KeyObject>();
    const jwks: PublicJwk[] = [];
    // Published and verifying: the current key first (clients that take the first key find the signing one), then the next, then the previous ones, newest first.
    const published = [current, ...rows.filter((r) => r.status === 'next'), ...rows.filter((r) => r.status === 'previous').reverse()];
    for (const row of published) {
      const jwk = row.public_jwk;
      const key = createPublicKey({ key: { kty: 'RSA', n: jwk.n, e: jwk.e }, format: 'jwk' });
      verification.set(row.kid, key);
      verification.set(fapiKid(row.kid), key);
      const der = Buffer.from(row.cert_der, 'base64');
      const x5t = x5tOf(der);
      jwks.push(
        { kty: 'RSA', use: 'sig', n: jwk.n, e: jwk.e, kid: row.kid, x5t, x5c: [row.cert_der], alg: SIGNING_ALG },
        { kty: 'RSA', use: 'sig', n: jwk.n, e: jwk.e, kid: fapiKid(row.kid), x5t, x5c: [row.cert_der], alg: FAPI_SIGNING_ALG },
      );
    }
    const pem = this.box.openString(current.private_key_enc, signingKeyContext(tenantId, current.kid));
    let clientSigningKeys: TenantKeys['clientSigningKeys'] | undefined;
    return {
      signing: { kid: current.kid, privateKey: createPrivateKey(pem), privateKeyPem: pem, certificatePem: toPem(Buffer.from(current.cert_der, 'base64'), 'CERTIFICATE') },
      verification,
      // Custom keys are published only: Gatehouse does not accept them as its own (not in `verification`).
      jwksJson: JSON.stringify({ keys: [...jwks, ...custom] }),
      get clientSigningKeys() {
        return (clientSigningKeys ??= [clientSigningKey(Buffer.from(current.cert_der, 'base64'))]);
      },
      loadedAt: this.now(),
    };
  }
}
