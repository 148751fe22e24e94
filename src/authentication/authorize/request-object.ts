/**
 * JWT-secured authorization requests (RFC 9101; authentication-api-wire-notes
 * §12): the `request` parameter of /authorize and of /oauth/par, a JWS signed
 * with one of the client's `signed_request_object.credentials`:
 *
 * - header: `alg` RS256, RS384 or PS256 and the one the key was registered
 *   with (so `none` and HMAC never verify), `typ` absent, `jwt` or
 *   `oauth-authz-req+jwt`, `kid` naming the key when present;
 * - claims: `iss` the client_id (and `client_id`, when present, the same),
 *   `aud` the issuer, `exp` required and at most MAX_LIFETIME_SECONDS ahead,
 *   `nbf` honoured, `jti` required and used once (across processes);
 * - at most MAX_REQUEST_OBJECT_BYTES.
 *
 * The request's parameters are the query's with the request object's
 * members over them (its values win). A client whose
 * `signed_request_object.required` is true may send no unsigned request.
 * A refusal is `invalid_request_object`: the error page at /authorize
 * (nothing about the request is trusted yet), JSON at /oauth/par.
 */
import { decodeProtectedHeader, errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';
import { candidateKeys } from '../../domain/client-credentials/registered.js';
import type { Stores } from '../../domain/stores.js';
import { REQUEST_OBJECT_CREDENTIALS, type IssuanceClient } from '../../domain/issuance/lookups.js';
import { secretHash } from '../../domain/secrets.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { isoAt } from '../../platform/clock.js';
import { oauthErrors } from '../../platform/http/errors.js';

export const REQUEST_OBJECT_ALGS: readonly string[] = ['RS256', 'RS384', 'PS256'];
export const MAX_REQUEST_OBJECT_BYTES = 16_384;
const MAX_LIFETIME_SECONDS = 3600;
const CLOCK_SKEW_SECONDS = 10;
const MAX_JTI_LENGTH = 128;
const TYPES = new Set(['jwt', 'oauth-authz-req+jwt']);
/** JWT claims that are not authorization request parameters. */
const JWT_CLAIMS = new Set(['iss', 'aud', 'exp', 'nbf', 'iat', 'jti', 'sub']);

/** Whether the client accepts only signed requests. */
export const requiresSignedRequests = (client: IssuanceClient) => (client.row.config.signed_request_object as { required?: unknown } | undefined)?.required === true;

const refuse = oauthErrors.invalidRequestObject;

/** The request object's members as authorization request parameters (strings; numbers such as max_age as text). */
function parametersOf(payload: JWTPayload): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(payload)) {
    if (JWT_CLAIMS.has(name)) continue;
    if (name === 'request' || name === 'request_uri') throw refuse(`A request object cannot carry ${name}`);
    if (typeof value === 'string') out[name] = value;
    else if (typeof value === 'number' && Number.isFinite(value)) out[name] = String(value);
    else throw refuse(`Request object member ${name} must be a string or a number`);
  }
  return out;
}

/** What reading a request object touches: the clock and the one-time-use store (a `jti` is spent once). */
export interface RequestObjectContext {
  readonly now: () => number;
  readonly stores: Pick<Stores, 'oneTimeUses'>;
}

async function verify(ctx: Pick<RequestObjectContext, 'now'>, tenant: Tenant, client: IssuanceClient, jwt: string): Promise<JWTPayload> {
  if (Buffer.byteLength(jwt) > MAX_REQUEST_OBJECT_BYTES) throw refuse(`The request object is larger than ${MAX_REQUEST_OBJECT_BYTES} bytes`);
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(jwt);
  } catch {
    throw refuse('The request object is not a signed JWT');
  }
  const alg = header.alg;
  if (typeof alg !== 'string' || !REQUEST_OBJECT_ALGS.includes(alg)) throw refuse(`The request object alg must be one of ${REQUEST_OBJECT_ALGS.join(', ')}`);
  if (header.typ !== undefined && !TYPES.has(String(header.typ).toLowerCase())) throw refuse('The request object typ must be oauth-authz-req+jwt or jwt');
  const now = ctx.now();
  const keys = candidateKeys(client.credentials.get(REQUEST_OBJECT_CREDENTIALS) ?? [], alg, typeof header.kid === 'string' ? header.kid : undefined, now);
  if (keys === 'no_usable_key') throw refuse('The client has no usable key for signed request objects');
  if (keys === 'unknown_kid') throw refuse(`No request-object key of the client has the kid ${String(header.kid)}`);
  if (keys === 'wrong_alg') throw refuse(`The request object alg ${alg} is not the one its key was registered with`);

  let failure: unknown;
  for (const credential of keys) {
    try {
      const { payload } = await jwtVerify(jwt, credential.key!, {
        algorithms: [alg],
        issuer: client.row.client_id,
        audience: tenant.issuer,
        requiredClaims: ['exp', 'jti'],
        clockTolerance: CLOCK_SKEW_SECONDS,
        currentDate: new Date(now),
      });
      return payload;
    } catch (error) {
      failure = error;
      if (!(error instanceof joseErrors.JWSSignatureVerificationFailed)) break;
    }
  }
  if (failure instanceof joseErrors.JWTClaimValidationFailed) throw refuse(`The request object ${failure.claim} claim is invalid: ${failure.message}`);
  if (failure instanceof joseErrors.JWTExpired) throw refuse('The request object has expired');
  throw refuse('The request object signature does not verify');
}

/**
 * The parameters of a request with a `request` object: the query's, with the
 * object's members over them, once the object is verified and its `jti`
 * spent. Without one, the query's, unless the client requires signed requests.
 */
export async function withRequestObject(ctx: RequestObjectContext, tenant: Tenant, client: IssuanceClient, params: Record<string, string>): Promise<Record<string, string>> {
  const jwt = params.request;
  if (jwt === undefined) {
    if (requiresSignedRequests(client)) throw refuse('This client must send signed request objects (request parameter)');
    return params;
  }
  const payload = await verify(ctx, tenant, client, jwt);
  const nowSeconds = Math.floor(ctx.now() / 1000);
  if (payload.exp! > nowSeconds + MAX_LIFETIME_SECONDS + CLOCK_SKEW_SECONDS) throw refuse(`The request object must expire within ${MAX_LIFETIME_SECONDS} seconds`);
  if (payload.client_id !== undefined && payload.client_id !== client.row.client_id) throw refuse('The request object client_id does not match the client');
  if (typeof payload.jti !== 'string' || payload.jti === '' || payload.jti.length > MAX_JTI_LENGTH) throw refuse(`The request object jti must be 1 to ${MAX_JTI_LENGTH} characters`);
  const members = parametersOf(payload);
  const fresh = await ctx.stores.oneTimeUses.use(tenant.id, `request_object:${client.row.client_id}`, secretHash(payload.jti), isoAt((payload.exp! + CLOCK_SKEW_SECONDS) * 1000), isoAt(ctx.now()));
  if (!fresh) throw refuse('The request object was already used');
  const { request: _request, ...query } = params;
  return { ...query, ...members, client_id: client.row.client_id };
}
