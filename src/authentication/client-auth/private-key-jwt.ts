/**
 * `private_key_jwt` (RFC 7523 §2.2, OIDC Core §9; authentication-api-wire-
 * notes §1.1): `client_assertion_type=urn:ietf:params:oauth:client-assertion-
 * type:jwt-bearer` and `client_assertion=<JWT>` signed with one of the keys
 * the client registered for the method.
 *
 * Checked, each failure a 401 `invalid_client` saying which:
 * - size: the assertion at most 2048 bytes, `iss`, `sub` and `jti` at most
 *   64 characters, `alg` at most 16;
 * - header: `alg` RS256, RS384 or PS256 and the one the key was registered
 *   with (so `none` and HMAC never verify); `kid`, when present, names the key;
 * - signature: by one of the client's registered, unexpired keys;
 * - claims: `iss` = `sub` = the client_id; `aud` the issuer `https://{domain}/`
 *   (the token and PAR endpoint URLs are accepted too, RFC 9126 §2); `exp` required and at most
 *   5 minutes ahead; `iat` and `nbf` optional, 10 s of clock skew;
 * - `jti` required and used once (src/domain/one-time-use: a replay is refused
 *   in every process on the database) until the assertion expires.
 */
import { decodeJwt, decodeProtectedHeader, errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';
import { candidateKeys, type RegisteredCredential } from '../../domain/client-credentials/registered.js';
import { secretHash } from '../../domain/secrets.js';
import { isoAt } from '../../platform/clock.js';
import { oauthErrors } from '../../platform/http/errors.js';
import type { ClientAuthMethod } from './method.js';

export const JWT_BEARER_ASSERTION = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
export const ASSERTION_SIGNING_ALGS: readonly string[] = ['RS256', 'RS384', 'PS256'];

const MAX_ASSERTION_BYTES = 2048;
const MAX_CLAIM_LENGTH = 64;
const MAX_ALG_LENGTH = 16;
const MAX_LIFETIME_SECONDS = 300;
const CLOCK_SKEW_SECONDS = 10;
const NAME = 'private_key_jwt';

const refuse = (description: string) => oauthErrors.invalidClient(description);

/** The assertion's `iss` (the client it claims to be), read before any check but the size; the signature is verified later. */
function claimedClient(assertion: string): string {
  let payload: JWTPayload;
  try {
    payload = decodeJwt(assertion);
  } catch {
    throw refuse('client_assertion is not a valid JWT');
  }
  if (typeof payload.iss !== 'string' || payload.iss === '') throw refuse('client_assertion must have an iss claim');
  if (payload.iss.length > MAX_CLAIM_LENGTH) throw refuse(`client_assertion iss claim must be at most ${MAX_CLAIM_LENGTH} characters`);
  return payload.iss;
}

/** The registered keys the assertion may be signed with: unexpired, its `alg`, and its `kid` when it names one. */
function assertionKeys(credentials: readonly RegisteredCredential[], alg: string, kid: string | undefined, now: number): RegisteredCredential[] {
  const keys = candidateKeys(credentials, alg, kid, now);
  if (keys === 'no_usable_key') throw refuse('The client has no usable credential for private_key_jwt');
  if (keys === 'unknown_kid') throw refuse(`No credential of the client has the kid ${kid}`);
  if (keys === 'wrong_alg') throw refuse(`The client_assertion alg ${alg} is not the one its credential was registered with`);
  return keys;
}

export const privateKeyJwt: ClientAuthMethod = {
  name: NAME,
  parameters: ['client_assertion', 'client_assertion_type'],
  confidential: true,
  advertised: true,
  signingAlgs: ASSERTION_SIGNING_ALGS,
  detect(_request, params) {
    if (params.client_assertion === undefined && params.client_assertion_type === undefined) return undefined;
    if (params.client_assertion_type !== JWT_BEARER_ASSERTION) throw refuse(`client_assertion_type must be ${JWT_BEARER_ASSERTION}`);
    const assertion = params.client_assertion;
    if (!assertion) throw refuse('Missing required parameter: client_assertion');
    if (Buffer.byteLength(assertion, 'utf8') > MAX_ASSERTION_BYTES) throw refuse(`client_assertion must be at most ${MAX_ASSERTION_BYTES} bytes`);
    return { method: NAME, clientId: claimedClient(assertion), assertion };
  },
  async verify(ctx, tenant, client, credentials) {
    const assertion = credentials.assertion!;
    let header;
    try {
      header = decodeProtectedHeader(assertion);
    } catch {
      throw refuse('client_assertion is not a valid JWT');
    }
    const alg = header.alg;
    if (typeof alg !== 'string' || alg.length > MAX_ALG_LENGTH || !ASSERTION_SIGNING_ALGS.includes(alg)) {
      throw refuse(`client_assertion alg must be one of ${ASSERTION_SIGNING_ALGS.join(', ')}`);
    }
    const now = ctx.now();
    const keys = assertionKeys(client.credentials.get(NAME) ?? [], alg, typeof header.kid === 'string' ? header.kid : undefined, now);
    const clientId = client.row.client_id;

    let payload: JWTPayload | undefined;
    let failure: unknown;
    for (const credential of keys) {
      try {
        ({ payload } = await jwtVerify(assertion, credential.key!, {
          algorithms: [alg],
          issuer: clientId,
          subject: clientId,
          audience: [tenant.issuer, `${tenant.issuer}oauth/token`, `${tenant.issuer}oauth/par`],
          requiredClaims: ['exp', 'jti'],
          clockTolerance: CLOCK_SKEW_SECONDS,
          currentDate: new Date(now),
        }));
        break;
      } catch (error) {
        failure = error;
        if (!(error instanceof joseErrors.JWSSignatureVerificationFailed)) break;
      }
    }
    if (!payload) throw refuse(assertionFailure(failure));

    const nowSeconds = Math.floor(now / 1000);
    if (payload.exp! > nowSeconds + MAX_LIFETIME_SECONDS + CLOCK_SKEW_SECONDS) throw refuse(`client_assertion must expire within ${MAX_LIFETIME_SECONDS} seconds`);
    const jti = payload.jti!;
    if (typeof jti !== 'string' || jti === '' || jti.length > MAX_CLAIM_LENGTH) throw refuse(`client_assertion jti must be 1 to ${MAX_CLAIM_LENGTH} characters`);
    if (typeof payload.sub === 'string' && payload.sub.length > MAX_CLAIM_LENGTH) throw refuse(`client_assertion sub claim must be at most ${MAX_CLAIM_LENGTH} characters`);
    const fresh = await ctx.stores.oneTimeUses.use(tenant.id, `client_assertion:${clientId}`, secretHash(jti), isoAt((payload.exp! + CLOCK_SKEW_SECONDS) * 1000), isoAt(now));
    if (!fresh) throw refuse('client_assertion has already been used (jti replay)');
  },
};

function assertionFailure(error: unknown): string {
  if (error instanceof joseErrors.JWTExpired) return 'client_assertion has expired';
  if (error instanceof joseErrors.JWTClaimValidationFailed) {
    switch (error.claim) {
      case 'aud':
        return 'client_assertion aud claim must be the issuer of this tenant';
      case 'iss':
      case 'sub':
        return `client_assertion ${error.claim} claim must be the client_id`;
      case 'nbf':
      case 'iat':
        return `client_assertion ${error.claim} claim is in the future`;
      case 'exp':
      case 'jti':
        return `client_assertion must have a${error.claim === 'exp' ? 'n' : ''} ${error.claim} claim`;
      default:
        return `client_assertion ${error.claim} claim is not valid`;
    }
  }
  if (error instanceof joseErrors.JWSSignatureVerificationFailed) return 'client_assertion signature does not verify with the client’s registered keys';
  return 'client_assertion is not valid';
}
