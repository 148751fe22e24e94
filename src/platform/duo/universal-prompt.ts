/**
 * Duo's Universal Prompt, the OpenID Connect-style protocol of Duo's Web SDK
 * v4 (what Duo's `duo_universal` libraries implement), with `jose`:
 *
 * - the browser is sent to `{base}/oauth/v1/authorize` with
 *   `response_type=code`, `client_id` (the integration key) and `request`, a
 *   JWT signed HS512 with the secret key carrying the redirect URI, `state`,
 *   `nonce`, the Duo user name (`duo_uname`) and
 *   `use_duo_code_attribute: true` (Duo answers `duo_code`);
 * - the code is redeemed at `{base}/oauth/v1/token` with a client assertion
 *   (RFC 7523, HS512 with the secret key, issued and subject the
 *   integration key, for the token endpoint's URL, with a `jti`);
 * - the answer's `id_token` is checked: HS512 with the secret key, issued by
 *   the token endpoint for the integration key, not expired, for the user
 *   name and the nonce given, and its `auth_result` `allow`.
 *
 * `{base}` is `https://{host}` of the tenant's settings, or the operator's
 * GATEHOUSE_DUO_URL (a local stand-in). The host is the tenant's choice: the
 * token request is made with the guarded fetch of ../http/upstream-fetch.ts
 * (public addresses only unless GATEHOUSE_OUTBOUND_ALLOW lists the range,
 * checked on the address connected to; HTTPS only, certificates verified
 * against the system roots plus GATEHOUSE_DUO_CA_FILE; no redirect
 * followed; a bounded answer and a deadline).
 */
import { randomBytes } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import type { UpstreamFetch } from '../http/upstream-fetch.js';

const MAX_ANSWER = 64 * 1024;
const JWT_LIFETIME_S = 300;
const CLIENT_ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

/** A Duo application: its integration key, secret key and the base URL of its API. */
export interface DuoApplication {
  /** The integration key (the OAuth client id). */
  ikey: string;
  /** The secret key (the HS512 key of every JWT). */
  skey: string;
  /** `https://{host}`, or GATEHOUSE_DUO_URL. */
  baseUrl: string;
}


/** The login's binding: where Duo sends the browser back, and what it must carry. */
export interface DuoLogin {
  redirectUri: string;
  state: string;
  nonce: string;
  /** The Duo user name the prompt is for. */
  username: string;
}

/** Why Duo's answer is refused (never carries a secret). */
export class DuoError extends Error {
  constructor(
    readonly reason: 'unreachable' | 'token_refused' | 'invalid_id_token' | 'denied',
    message: string,
  ) {
    super(message);
  }
}

/** `https://{host}` of a Duo API host name, or the operator's override. */
export function duoBaseUrl(host: string, override: string | undefined): string {
  return (override ?? `https://${host}`).replace(/\/+$/, '');
}

const key = (app: DuoApplication) => new TextEncoder().encode(app.skey);
const tokenEndpoint = (app: DuoApplication) => `${app.baseUrl}/oauth/v1/token`;

/** The Universal Prompt's URL for this login (the browser is sent there). */
export async function authorizationUrl(app: DuoApplication, login: DuoLogin, now: number): Promise<string> {
  const iat = Math.floor(now / 1000);
  const request = await new SignJWT({
    response_type: 'code',
    scope: 'openid',
    client_id: app.ikey,
    redirect_uri: login.redirectUri,
    state: login.state,
    nonce: login.nonce,
    duo_uname: login.username,
    use_duo_code_attribute: true,
  })
    .setProtectedHeader({ alg: 'HS512', typ: 'JWT' })
    .setIssuer(app.ikey)
    .setAudience(app.baseUrl)
    .setIssuedAt(iat)
    .setExpirationTime(iat + JWT_LIFETIME_S)
    .sign(key(app));
  const url = new URL(`${app.baseUrl}/oauth/v1/authorize`);
  url.search = new URLSearchParams({ response_type: 'code', client_id: app.ikey, request, redirect_uri: login.redirectUri, scope: 'openid' }).toString();
  return url.toString();
}

/** Redeems Duo's `duo_code` and checks the id_token; resolves with its claims, rejects with a DuoError. */
export async function exchangeCode(app: DuoApplication, login: DuoLogin, code: string, fetch: UpstreamFetch, now: number): Promise<Record<string, unknown>> {
  const iat = Math.floor(now / 1000);
  const endpoint = tokenEndpoint(app);
  const assertion = await new SignJWT({})
    .setProtectedHeader({ alg: 'HS512', typ: 'JWT' })
    .setIssuer(app.ikey)
    .setSubject(app.ikey)
    .setAudience(endpoint)
    .setIssuedAt(iat)
    .setExpirationTime(iat + JWT_LIFETIME_S)
    .setJti(randomBytes(18).toString('base64url'))
    .sign(key(app));
  const form = new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: login.redirectUri, client_assertion_type: CLIENT_ASSERTION_TYPE, client_assertion: assertion });
  let answer: { status: number; body: string };
  try {
    const res = await fetch(endpoint, { method: 'POST', headers: { accept: 'application/json' }, body: form });
    answer = { status: res.status, body: (await res.text()).slice(0, MAX_ANSWER) };
  } catch (error) {
    throw new DuoError('unreachable', `Duo could not be reached: ${(error as Error).message}`);
  }
  let parsed: { id_token?: unknown };
  try {
    parsed = JSON.parse(answer.body) as { id_token?: unknown };
  } catch {
    parsed = {};
  }
  if (answer.status !== 200 || typeof parsed.id_token !== 'string') throw new DuoError('token_refused', `Duo refused the code (${answer.status})`);
  let claims: Record<string, unknown>;
  try {
    ({ payload: claims } = await jwtVerify(parsed.id_token, key(app), {
      algorithms: ['HS512'],
      issuer: endpoint,
      audience: app.ikey,
      requiredClaims: ['exp', 'iat'],
      currentDate: new Date(now),
      clockTolerance: 60,
    }));
  } catch (error) {
    throw new DuoError('invalid_id_token', `Duo's id_token is not valid: ${(error as Error).message}`);
  }
  if (claims.preferred_username !== login.username) throw new DuoError('invalid_id_token', "Duo's id_token is for another user");
  if (claims.nonce !== login.nonce) throw new DuoError('invalid_id_token', "Duo's id_token has another nonce");
  const result = (claims.auth_result as { result?: unknown } | undefined)?.result;
  if (result !== 'allow') throw new DuoError('denied', 'Duo did not allow the login');
  return claims;
}
