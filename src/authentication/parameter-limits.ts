/**
 * Size limits on the parameters of every Authentication API request (query
 * strings, JSON and form bodies, the hosted pages' form posts), checked in one
 * preValidation hook, so before any handler looks a client or user up, hashes
 * a password or derives a brute-force key from an identifier:
 *
 * - `username` and `email`: 512 bytes (no identifier is longer; RFC 5321
 *   §4.5.3.1 caps an address at 254 octets of path);
 * - `password` (and its confirmation): 1 KiB, which keeps the cost of
 *   hashing predictable;
 * - `scope`: 8 KiB, as the admin console asks for every Management API
 *   scope (over 5 KiB of names);
 * - tokens a request may carry back (`access_token`, `id_token_hint`,
 *   `client_assertion`): 16 KiB, as a JWT with many claims or permissions
 *   outgrows 4 KiB; the CAPTCHA widgets' tokens likewise (16 KiB);
 * - any other value: 4 KiB;
 * - at most 64 values in a query string and 64 in a body, each name at most
 *   256 bytes.
 *
 * A request past a limit gets 400 `invalid_request` naming the parameter.
 * Endpoints whose body reader bounds every member itself, in the endpoint's
 * own error shape (/dbconnections/*), mark their route `ownParameterLimits`
 * and only their query string is checked here.
 */
import type { FastifyRequest } from 'fastify';
import { oauthErrors } from '../platform/http/errors.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route bounds its body's members itself (only the query string is checked by the common limits). */
    ownParameterLimits?: boolean;
  }
}

export const MAX_PARAMETERS = 64;
const MAX_NAME_BYTES = 256;
const DEFAULT_VALUE_BYTES = 4096;
const TOKEN_VALUE_BYTES = 16_384;

/** By parameter name (the request's): a Map, so `constructor` or `toString` gets the default bound, not Object.prototype's member. */
const VALUE_BYTES: ReadonlyMap<string, number> = new Map(Object.entries({
  username: 512,
  email: 512,
  password: 1024,
  password_confirmation: 1024,
  scope: 8192,
  access_token: TOKEN_VALUE_BYTES,
  id_token_hint: TOKEN_VALUE_BYTES,
  client_assertion: TOKEN_VALUE_BYTES,
  // A WebAuthn credential's JSON (the MFA page's `credential`): an attestation with its certificates runs to a few KiB.
  credential: TOKEN_VALUE_BYTES,
  // The CAPTCHA widgets' tokens (bot detection): hCaptcha's and reCAPTCHA's run to a few KiB.
  'g-recaptcha-response': TOKEN_VALUE_BYTES,
  'h-captcha-response': TOKEN_VALUE_BYTES,
  'frc-captcha-solution': TOKEN_VALUE_BYTES,
  // SAML messages (base64; a Response with a certificate and many attributes runs to tens of KiB).
  SAMLRequest: 64 * 1024,
  SAMLResponse: 256 * 1024,
}));

/** The most bytes a value of parameter `name` may have. */
export function maxValueBytes(name: string): number {
  return VALUE_BYTES.get(name) ?? DEFAULT_VALUE_BYTES;
}

function byteLength(value: unknown): number {
  if (typeof value === 'string') return Buffer.byteLength(value, 'utf8');
  // A JSON body's members may be numbers, booleans, objects: measured as sent.
  return Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');
}

/** Checks the parameters of one source (a query string or a body); a non-object source has none. */
function checkSource(source: unknown): void {
  if (source === null || typeof source !== 'object' || Array.isArray(source)) return;
  let count = 0;
  for (const [name, value] of Object.entries(source as Record<string, unknown>)) {
    if (Buffer.byteLength(name, 'utf8') > MAX_NAME_BYTES) throw oauthErrors.parameterNameTooLong(MAX_NAME_BYTES);
    // A repeated query or form parameter arrives as an array; each value counts.
    const values = Array.isArray(value) && typeof value[0] === 'string' ? (value as unknown[]) : [value];
    count += values.length;
    if (count > MAX_PARAMETERS) throw oauthErrors.tooManyParameters(MAX_PARAMETERS);
    const limit = maxValueBytes(name);
    for (const one of values) {
      if (byteLength(one) > limit) throw oauthErrors.parameterTooLong(name, limit);
    }
  }
}

/** The preValidation hook of the Authentication API's routes. */
export async function parameterLimitsHook(request: FastifyRequest): Promise<void> {
  checkSource(request.query);
  if (!request.routeOptions.config.ownParameterLimits) checkSource(request.body);
}
