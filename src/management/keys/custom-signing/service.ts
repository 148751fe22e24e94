/**
 * Custom signing keys (GET/PUT/DELETE /api/v2/keys/custom-signing): the
 * public keys a tenant brings, published after its own keys in
 * /.well-known/jwks.json (src/domain/keys/keyring.ts; a write is a
 * configuration write, so every process republishes at once). Each key must
 * import as a public key of its type, RSA of at least 2048 bits, an `alg`
 * that fits it (RS/PS for RSA; ES256 with P-256, ES384 with P-384, ES512 with
 * P-521); a key without `kid` gets its RFC 7638 thumbprint. A `kid` may not
 * repeat, nor name one of the tenant's own keys (a relying party would pick
 * the wrong key). Gatehouse holds no private half: it neither signs with
 * these keys nor accepts tokens they signed as its own.
 */
import { createPublicKey } from 'node:crypto';
import { calculateJwkThumbprint, type JWK } from 'jose';
import type { CustomSigningJwk, CustomSigningKeyStore } from '../../../domain/keys/custom-signing.js';
import type { Keyring } from '../../../domain/keys/keyring.js';
import type { Tenant } from '../../../domain/tenants/tenant.js';
import { isoAt } from '../../../platform/clock.js';
import { managementErrors } from '../../../platform/http/errors.js';
import type { CustomSigningJwkBody, SetCustomSigningKeysBody } from './schema.js';

const MIN_RSA_BITS = 2048;
const CURVE_ALG: Readonly<Record<string, string>> = { 'P-256': 'ES256', 'P-384': 'ES384', 'P-521': 'ES512' };

function invalid(property: string, message: string): Error {
  return managementErrors.invalidBody(`Payload validation error: '${message}' on property ${property}.`);
}

/** The members of its type a key must have and the ones it may not. */
function checkShape(key: CustomSigningJwkBody, at: string): void {
  const [required, foreign] = key.kty === 'RSA' ? [['n', 'e'], ['crv', 'x', 'y']] : [['crv', 'x', 'y'], ['n', 'e']];
  for (const member of required) if (key[member as keyof CustomSigningJwkBody] === undefined) throw invalid(`${at}.${member}`, `Missing required property: ${member}`);
  for (const member of foreign) if (key[member as keyof CustomSigningJwkBody] !== undefined) throw invalid(`${at}.${member}`, `${member} is not a member of a ${key.kty} key`);
  if (key.alg !== undefined) {
    const fits = key.kty === 'RSA' ? /^(RS|PS)/.test(key.alg) : CURVE_ALG[key.crv!] === key.alg;
    if (!fits) throw invalid(`${at}.alg`, `${key.alg} does not fit a ${key.kty === 'RSA' ? 'RSA key' : `${key.crv} key`}`);
  }
}

async function checkedKey(key: CustomSigningJwkBody, i: number): Promise<CustomSigningJwk> {
  const at = `keys[${i}]`;
  checkShape(key, at);
  const material = key.kty === 'RSA' ? { kty: 'RSA', n: key.n!, e: key.e! } : { kty: 'EC', crv: key.crv!, x: key.x!, y: key.y! };
  let bits: number | undefined;
  try {
    bits = createPublicKey({ key: material, format: 'jwk' }).asymmetricKeyDetails?.modulusLength;
  } catch {
    throw invalid(at, `Not a valid ${key.kty} public key`);
  }
  if (key.kty === 'RSA' && (bits ?? 0) < MIN_RSA_BITS) throw invalid(`${at}.n`, `An RSA key must have at least ${MIN_RSA_BITS} bits`);
  return { ...key, kid: key.kid ?? (await calculateJwkThumbprint(material as JWK, 'sha256')) };
}

function none(): Error {
  return managementErrors.notFound('No custom signing keys found for this tenant. Upload custom signing keys first.');
}

/** What CustomSigningKeyService touches. */
export interface CustomSigningKeyServiceContext {
  readonly keyring: Keyring;
  readonly now: () => number;
  readonly stores: { readonly customSigningKeys: CustomSigningKeyStore };
}

export class CustomSigningKeyService {
  constructor(private readonly ctx: CustomSigningKeyServiceContext) {}

  async get(tenant: Tenant): Promise<{ keys: CustomSigningJwk[] }> {
    const keys = await this.ctx.stores.customSigningKeys.get(tenant.id);
    if (keys === undefined) throw none();
    return { keys };
  }

  async set(tenant: Tenant, body: SetCustomSigningKeysBody): Promise<{ keys: CustomSigningJwk[] }> {
    const keys: CustomSigningJwk[] = [];
    for (const [i, key] of body.keys.entries()) keys.push(await checkedKey(key, i));
    const own = (await this.ctx.keyring.keys(tenant.id)).verification;
    const seen = new Set<string>();
    for (const [i, { kid }] of keys.entries()) {
      if (seen.has(kid) || own.has(kid)) throw invalid(`keys[${i}].kid`, `kid ${kid} is already in use`);
      seen.add(kid);
    }
    await this.ctx.stores.customSigningKeys.set(tenant.id, keys, isoAt(this.ctx.now()));
    return { keys };
  }

  async delete(tenant: Tenant): Promise<void> {
    await this.ctx.stores.customSigningKeys.delete(tenant.id);
  }
}
