/** Identifiers and secrets in the formats the service uses (management-api-wire-notes §5). */
import { randomBytes, randomInt } from 'node:crypto';

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Uniformly random string over `alphabet` (rejection sampling via randomInt). */
export function randomString(length: number, alphabet: string = ALPHANUMERIC): string {
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[randomInt(alphabet.length)];
  return out;
}

/** `client_id`: 32 characters of [A-Za-z0-9]. */
export function newClientId(): string {
  return randomString(32);
}

/** `client_secret`: 64 characters of [A-Za-z0-9_-] (48 random bytes, base64url). */
export function newClientSecret(): string {
  return randomBytes(48).toString('base64url');
}

/** Prefixed ids such as `cgr_…` for client grants, `ten_…` for tenants. */
export function newPrefixedId(prefix: string, length = 16): string {
  return `${prefix}_${randomString(length)}`;
}

/** Key ids: short random base64url strings, as newer tenants of the service use. */
export function newKeyId(): string {
  return randomBytes(16).toString('base64url');
}
