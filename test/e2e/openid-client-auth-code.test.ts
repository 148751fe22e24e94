/**
 * openid-client v6 as a regular web application runs the authorization code
 * flow with PKCE (RFC 7636, S256) against the built server over real HTTPS:
 * discovery, the authorization URL, the hosted login page driven by a
 * scripted browser (./support/browser.ts: its own cookie jar, redirects
 * followed by hand), the code exchange, refresh token rotation and reuse
 * detection, /userinfo, revocation (RFC 7009) and RP-Initiated Logout.
 *
 * Everything is set up as an operator would, through the Management API with
 * the server process's admin credentials: an API allowing offline access, a
 * database connection with a user, and first-party regular_web clients with
 * rotating, expiring refresh tokens, enabled on the connection. The application's
 * callback is on 127.0.0.1 where nothing listens: the browser stops at the
 * redirect and hands the URL to openid-client, as a web app's route would.
 *
 * Reuse of a rotated refresh token (src/authentication/token/grants/refresh-token.ts):
 * within the client's `leeway` it is accepted and gets another token of the
 * family; after it, the whole family is revoked, the newest token included.
 * The main client has `leeway: 0`, so any reuse is a breach.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import * as client from 'openid-client';
import { createRemoteJWKSet, customFetch as joseCustomFetch, jwtVerify } from 'jose';
import { freePort, startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { readForm, ScriptedBrowser, setCookieOf, type Navigation } from './support/browser.js';
import { caFetch, cleanUp, httpsRequest, managementToken } from './support/https.js';

const PASSWORD = 'correct horse battery staple';
const EMAIL = 'alice@example.com';
const NAME = 'Alice Example';
const API_SCOPE = 'read:x';
const SCOPE = `openid profile email offline_access ${API_SCOPE}`;
const API_TOKEN_LIFETIME = 3600;
const UNKNOWN_REFRESH_TOKEN = 'Unknown or invalid refresh token.';
const SESSION_COOKIE = '__Host-gh_session';

interface WebApp {
  clientId: string;
  clientSecret: string;
  config: client.Configuration;
}

/** What the application keeps between the redirect to /authorize and the callback. */
interface PendingAuthorization {
  url: URL;
  pkceCodeVerifier: string;
  expectedState: string;
  expectedNonce: string;
}

type Tokens = Awaited<ReturnType<typeof client.authorizationCodeGrant>>;

let server: ServerProcess;
let ca: Buffer;
let fetchWithCa: ReturnType<typeof caFetch>;
let issuer: URL;
let api: string;
let callback: string;
let loggedOut: string;
let userId: string;
/** `refresh_token.leeway: 0`: any reuse of a rotated token revokes its family. */
let strict: WebApp;
/** `refresh_token.leeway: 600`: a rotated token is accepted again for ten minutes. */
let lenient: WebApp;
let jwks: ReturnType<typeof createRemoteJWKSet>;
const servers: ServerProcess[] = [];

async function management(token: string, method: string, path: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await httpsRequest(`${server.baseUrl}/api/v2${path}`, {
    ca,
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  assert.ok(res.status >= 200 && res.status < 300, `${method} ${path}: ${res.status} ${res.text}`);
  return res.text === '' ? {} : res.json<Record<string, unknown>>();
}

/** A regular web application enabled on the connection, and openid-client configured for it by discovery. */
async function createWebApp(token: string, connectionId: string, leeway: number): Promise<WebApp> {
  const created = await management(token, 'POST', '/clients', {
    name: `openid-client web app (leeway ${leeway})`,
    app_type: 'regular_web',
    // The operator's own application: first party (the default), so no consent page.
    is_first_party: true,
    token_endpoint_auth_method: 'client_secret_basic',
    callbacks: [callback],
    allowed_logout_urls: [loggedOut],
    grant_types: ['authorization_code', 'refresh_token'],
    refresh_token: {
      rotation_type: 'rotating',
      expiration_type: 'expiring',
      leeway,
      token_lifetime: 86_400,
      idle_token_lifetime: 3600,
      infinite_token_lifetime: false,
      infinite_idle_token_lifetime: false,
    },
  });
  const clientId = created.client_id as string;
  const clientSecret = created.client_secret as string;
  await management(token, 'PATCH', `/connections/${connectionId}/clients`, [{ client_id: clientId, status: true }]);
  const config = await client.discovery(issuer, clientId, clientSecret, client.ClientSecretBasic(clientSecret), { [client.customFetch]: fetchWithCa });
  return { clientId, clientSecret, config };
}

before(async () => {
  server = await startServerProcess();
  servers.push(server);
  ca = fs.readFileSync(server.certFile);
  fetchWithCa = caFetch(ca);
  issuer = new URL(`${server.baseUrl}/`);
  const app = `http://127.0.0.1:${await freePort()}`;
  callback = `${app}/callback`;
  loggedOut = `${app}/logged-out`;
  api = `https://api-${randomBytes(4).toString('hex')}.example.com/`;

  const token = await managementToken(server);
  await management(token, 'POST', '/resource-servers', {
    identifier: api,
    name: 'openid-client auth code API',
    token_lifetime: API_TOKEN_LIFETIME,
    allow_offline_access: true,
    scopes: [{ value: API_SCOPE, description: 'Read x' }],
  });
  const connection = await management(token, 'POST', '/connections', { name: 'openid-client-users', strategy: 'auth0' });
  strict = await createWebApp(token, connection.id as string, 0);
  lenient = await createWebApp(token, connection.id as string, 600);
  const user = await management(token, 'POST', '/users', { connection: 'openid-client-users', email: EMAIL, password: PASSWORD, name: NAME });
  userId = user.user_id as string;
  jwks = createRemoteJWKSet(new URL(strict.config.serverMetadata().jwks_uri!), { [joseCustomFetch]: fetchWithCa });
});

after(async () => {
  await cleanUp(servers, servers.map((s) => s.dataDir));
});

/** The authorization URL as the application builds it: PKCE S256, state, nonce, scope and audience. */
async function startAuthorization(app: WebApp, extra: Record<string, string> = {}): Promise<PendingAuthorization> {
  const pkceCodeVerifier = client.randomPKCECodeVerifier();
  const expectedState = client.randomState();
  const expectedNonce = client.randomNonce();
  const url = client.buildAuthorizationUrl(app.config, {
    redirect_uri: callback,
    scope: SCOPE,
    audience: api,
    code_challenge: await client.calculatePKCECodeChallenge(pkceCodeVerifier),
    code_challenge_method: 'S256',
    state: expectedState,
    nonce: expectedNonce,
    ...extra,
  });
  return { url, pkceCodeVerifier, expectedState, expectedNonce };
}

/** The URL a navigation left the server for, asserted to be the callback. */
function callbackOf(navigation: Navigation): URL {
  assert.ok(navigation.leftTo, `expected a redirect to the callback, got ${navigation.last.status}: ${navigation.last.text.slice(0, 300)}`);
  assert.equal(`${navigation.leftTo.origin}${navigation.leftTo.pathname}`, callback);
  return navigation.leftTo;
}

/** /authorize → 302 /login → the login page → POST the form → 302 to the callback; the callback URL. */
async function logIn(browser: ScriptedBrowser, pending: PendingAuthorization): Promise<URL> {
  const toLogin = await browser.navigate(pending.url);
  const [authorize, page] = toLogin.hops;
  assert.ok(authorize && page, 'a redirect, then a page');
  assert.equal(authorize.status, 302);
  assert.ok(authorize.location);
  assert.equal(authorize.location.pathname, '/login');
  assert.match(authorize.location.search, /^\?state=[A-Za-z0-9_-]{43}$/);
  assert.equal(page.status, 200, toLogin.last.text);
  assert.match(String(toLogin.last.headers['content-type']), /^text\/html/);

  const form = readForm(toLogin.last.text, page.url);
  assert.equal(form.action.origin, issuer.origin);
  assert.equal(form.hidden.state, authorize.location.searchParams.get('state'));
  assert.match(form.hidden.csrf_token ?? '', /^\S{16,}$/, 'a CSRF token');

  const done = await browser.submit(form.action, { ...form.hidden, email: EMAIL, password: PASSWORD });
  assert.equal(done.hops.length, 1, `straight to the callback, not via ${done.hops[1]?.url.pathname}`);
  assert.equal(done.hops[0]!.status, 302, done.last.text);
  const session = setCookieOf(done.hops[0]!, SESSION_COOKIE);
  assert.ok(session, 'the login sets the session cookie');
  assert.match(session.value, /^[A-Za-z0-9_-]{43}$/);
  assert.equal(session.attributes.get('path'), '/');
  assert.ok(Number(session.attributes.get('max-age')) > 0);
  assert.ok(session.attributes.has('secure') && session.attributes.has('httponly'), 'Secure and HttpOnly');
  assert.equal(browser.cookie(SESSION_COOKIE), session.value);
  return callbackOf(done);
}

/** A browser that logs in for `app` and the tokens openid-client obtains with the code. */
async function signIn(app: WebApp): Promise<{ browser: ScriptedBrowser; pending: PendingAuthorization; tokens: Tokens }> {
  const browser = new ScriptedBrowser(issuer.origin, ca);
  const pending = await startAuthorization(app);
  const redirected = await logIn(browser, pending);
  assert.equal(redirected.searchParams.get('state'), pending.expectedState);
  assert.match(redirected.searchParams.get('code') ?? '', /^.{16,}$/);
  const tokens = await client.authorizationCodeGrant(app.config, redirected, pending);
  return { browser, pending, tokens };
}

/** The refresh token of a token response, which every grant here must return. */
function refreshTokenOf(tokens: Tokens): string {
  assert.equal(typeof tokens.refresh_token, 'string', 'a refresh token is issued');
  return tokens.refresh_token!;
}

/** openid-client's error for a refused token request: 403 invalid_grant with the given description. */
function invalidGrant(description: string) {
  return (error: unknown) => {
    assert.ok(error instanceof client.ResponseBodyError, String(error));
    assert.equal(error.status, 403);
    assert.equal(error.error, 'invalid_grant');
    assert.equal(error.error_description, description);
    return true;
  };
}

describe('authorization code flow with PKCE through openid-client', () => {
  test('discovery gives every endpoint of the flow', () => {
    const metadata = strict.config.serverMetadata();
    assert.equal(metadata.authorization_endpoint, `${issuer.href}authorize`);
    assert.equal(metadata.userinfo_endpoint, `${issuer.href}userinfo`);
    assert.equal(metadata.revocation_endpoint, `${issuer.href}oauth/revoke`);
    assert.equal(metadata.end_session_endpoint, `${issuer.href}oidc/logout`);
    assert.deepEqual(metadata.code_challenge_methods_supported, ['S256']);
    assert.ok(metadata.grant_types_supported?.includes('authorization_code'));
    assert.ok(metadata.grant_types_supported?.includes('refresh_token'));
  });

  test('login and code exchange: an access token for the API and /userinfo, an ID token with sub, nonce, sid and email, a refresh token', async () => {
    const { pending, tokens } = await signIn(strict);
    assert.equal(tokens.token_type, 'bearer');
    assert.equal(tokens.expires_in, API_TOKEN_LIFETIME);
    assert.deepEqual(tokens.scope?.split(' ').sort(), SCOPE.split(' ').sort());
    refreshTokenOf(tokens);

    const access = await jwtVerify(tokens.access_token, jwks, { issuer: issuer.href, audience: api, algorithms: ['RS256'] });
    assert.deepEqual(access.payload.aud, [api, `${issuer.href}userinfo`]);
    assert.equal(access.payload.sub, userId);
    assert.equal(access.payload.azp, strict.clientId);
    assert.equal(access.payload.exp! - access.payload.iat!, API_TOKEN_LIFETIME);
    assert.deepEqual(String(access.payload.scope).split(' ').sort(), SCOPE.split(' ').sort());

    // openid-client validated the ID token's iss, aud, exp, iat and nonce; its signature is checked here.
    const claims = tokens.claims();
    assert.ok(claims);
    assert.equal(claims.sub, userId);
    assert.equal(claims.nonce, pending.expectedNonce);
    assert.equal(typeof claims.sid, 'string');
    assert.equal(typeof claims.auth_time, 'number');
    assert.equal(claims.email, EMAIL);
    assert.equal(claims.email_verified, false);
    assert.equal(claims.name, NAME);
    const id = await jwtVerify(tokens.id_token!, jwks, { issuer: issuer.href, audience: strict.clientId, algorithms: ['RS256'] });
    assert.equal(id.payload.sid, claims.sid);
  });

  test('a replayed code is refused, and the refresh token its first use issued is revoked', async () => {
    const browser = new ScriptedBrowser(issuer.origin, ca);
    const pending = await startAuthorization(strict);
    const redirected = await logIn(browser, pending);
    const tokens = await client.authorizationCodeGrant(strict.config, redirected, pending);
    await assert.rejects(client.authorizationCodeGrant(strict.config, redirected, pending), invalidGrant('Invalid authorization code'));
    await assert.rejects(client.refreshTokenGrant(strict.config, refreshTokenOf(tokens)), invalidGrant(UNKNOWN_REFRESH_TOKEN));
  });

  test('SSO: a second /authorize with the session cookie skips the login page and gives a code of the same session', async () => {
    const { browser, tokens } = await signIn(strict);
    const first = tokens.claims()!;

    const pending = await startAuthorization(strict);
    const navigation = await browser.navigate(pending.url);
    assert.equal(navigation.hops.length, 1, 'no login page');
    assert.equal(navigation.hops[0]!.status, 302);
    assert.equal(setCookieOf(navigation.hops[0]!, SESSION_COOKIE), undefined, 'the session is not re-issued');
    const redirected = callbackOf(navigation);
    assert.equal(redirected.searchParams.get('state'), pending.expectedState);

    const again = await client.authorizationCodeGrant(strict.config, redirected, pending);
    const second = again.claims()!;
    assert.equal(second.sub, userId);
    assert.equal(second.nonce, pending.expectedNonce);
    assert.equal(second.sid, first.sid, 'the same session');
    assert.equal(second.auth_time, first.auth_time, 'no new authentication');
    assert.notEqual(refreshTokenOf(again), refreshTokenOf(tokens), 'a new grant, a new refresh token');
  });

  test('refresh token rotation: a new refresh token each time; reuse of a rotated one (leeway 0) revokes the family, the newest token included', async () => {
    const { tokens } = await signIn(strict);
    const first = refreshTokenOf(tokens);

    const refreshed = await client.refreshTokenGrant(strict.config, first);
    const second = refreshTokenOf(refreshed);
    assert.notEqual(second, first);
    assert.deepEqual(refreshed.scope?.split(' ').sort(), SCOPE.split(' ').sort());
    const access = await jwtVerify(refreshed.access_token, jwks, { issuer: issuer.href, audience: api, algorithms: ['RS256'] });
    assert.equal(access.payload.sub, userId);
    assert.equal(refreshed.claims()?.sub, userId);

    await assert.rejects(client.refreshTokenGrant(strict.config, first), invalidGrant(UNKNOWN_REFRESH_TOKEN));
    await assert.rejects(client.refreshTokenGrant(strict.config, second), invalidGrant(UNKNOWN_REFRESH_TOKEN));
  });

  test('within the leeway a rotated refresh token is accepted again and the family stays valid', async () => {
    const { tokens } = await signIn(lenient);
    const first = refreshTokenOf(tokens);
    const second = refreshTokenOf(await client.refreshTokenGrant(lenient.config, first));
    const retried = refreshTokenOf(await client.refreshTokenGrant(lenient.config, first));
    assert.notEqual(retried, second);
    assert.notEqual(retried, first);
    const third = refreshTokenOf(await client.refreshTokenGrant(lenient.config, second));
    refreshTokenOf(await client.refreshTokenGrant(lenient.config, retried));
    refreshTokenOf(await client.refreshTokenGrant(lenient.config, third));
  });

  test('fetchUserInfo with the access token gives the claims of the granted scopes for the expected subject', async () => {
    const { tokens } = await signIn(strict);
    const userinfo = await client.fetchUserInfo(strict.config, tokens.access_token, tokens.claims()!.sub);
    assert.equal(userinfo.sub, userId);
    assert.equal(userinfo.email, EMAIL);
    assert.equal(userinfo.email_verified, false);
    assert.equal(userinfo.name, NAME);
    assert.equal(typeof userinfo.updated_at, 'string');

    // The refreshed access token is just as good at /userinfo.
    const refreshed = await client.refreshTokenGrant(strict.config, refreshTokenOf(tokens));
    assert.equal((await client.fetchUserInfo(strict.config, refreshed.access_token, userId)).email, EMAIL);
  });

  test('tokenRevocation of a refresh token: refreshing with it then fails; revoking a rotated-away ancestor ends its successors too', async () => {
    const { browser, tokens } = await signIn(strict);
    const revoked = refreshTokenOf(tokens);
    await client.tokenRevocation(strict.config, revoked, { token_type_hint: 'refresh_token' });
    await assert.rejects(client.refreshTokenGrant(strict.config, revoked), invalidGrant(UNKNOWN_REFRESH_TOKEN));

    // A second grant from the same session: rotate once, then revoke the original.
    const pending = await startAuthorization(strict);
    const other = await client.authorizationCodeGrant(strict.config, callbackOf(await browser.navigate(pending.url)), pending);
    const ancestor = refreshTokenOf(other);
    const successor = refreshTokenOf(await client.refreshTokenGrant(strict.config, ancestor));
    await client.tokenRevocation(strict.config, ancestor);
    await assert.rejects(client.refreshTokenGrant(strict.config, successor), invalidGrant(UNKNOWN_REFRESH_TOKEN));
  });

  test('RP-Initiated Logout: buildEndSessionUrl ends the session, returns to the post-logout URL with state; then prompt=none is login_required', async () => {
    const { browser, tokens } = await signIn(strict);
    const session = browser.cookie(SESSION_COOKIE)!;

    // Before logout the session answers prompt=none with a code.
    const silent = await startAuthorization(strict, { prompt: 'none' });
    const active = callbackOf(await browser.navigate(silent.url));
    assert.equal(active.searchParams.get('error'), null);
    assert.ok(active.searchParams.get('code'));

    const logoutState = client.randomState();
    const endSession = client.buildEndSessionUrl(strict.config, { id_token_hint: tokens.id_token!, post_logout_redirect_uri: loggedOut, state: logoutState });
    assert.equal(endSession.href.split('?')[0], `${issuer.href}oidc/logout`);
    assert.equal(endSession.searchParams.get('client_id'), strict.clientId);
    const logout = await browser.navigate(endSession);
    assert.equal(logout.hops.length, 1);
    assert.equal(logout.hops[0]!.status, 302);
    const cleared = setCookieOf(logout.hops[0]!, SESSION_COOKIE);
    assert.ok(cleared, 'the logout clears the session cookie');
    assert.equal(cleared.value, '');
    assert.equal(cleared.attributes.get('max-age'), '0');
    assert.equal(cleared.attributes.get('path'), '/');
    assert.ok(logout.leftTo);
    assert.equal(`${logout.leftTo.origin}${logout.leftTo.pathname}`, loggedOut);
    assert.equal(logout.leftTo.searchParams.get('state'), logoutState);
    assert.equal(browser.cookie(SESSION_COOKIE), undefined, 'the browser dropped the cookie');

    // The old cookie, replayed, no longer names a session: the server ended it, not only the cookie.
    browser.setCookie(SESSION_COOKIE, session);
    const afterLogout = await startAuthorization(strict, { prompt: 'none' });
    const refused = callbackOf(await browser.navigate(afterLogout.url));
    assert.equal(refused.searchParams.get('error'), 'login_required');
    assert.equal(refused.searchParams.get('state'), afterLogout.expectedState);
    assert.equal(refused.searchParams.get('code'), null);
    await assert.rejects(client.authorizationCodeGrant(strict.config, refused, afterLogout), (error: unknown) => {
      assert.ok(error instanceof client.AuthorizationResponseError, String(error));
      assert.equal(error.error, 'login_required');
      return true;
    });
  });

  test('the Management API audience: an end user gets only current_user scopes, reads their own user and nothing else', async () => {
    const audience = `${issuer.href}api/v2/`;
    const browser = new ScriptedBrowser(issuer.origin, ca);
    const pending = await startAuthorization(strict, { audience, scope: 'openid read:clients read:client_keys delete:users read:current_user' });
    const tokens = await client.authorizationCodeGrant(strict.config, await logIn(browser, pending), pending);
    assert.equal(tokens.scope, 'openid read:current_user');
    const access = await jwtVerify(tokens.access_token, jwks, { issuer: issuer.href, audience, algorithms: ['RS256'] });
    assert.equal(access.payload.scope, 'openid read:current_user');
    const call = (path: string) => httpsRequest(`${server.baseUrl}/api/v2${path}`, { ca, method: 'GET', headers: { authorization: `Bearer ${tokens.access_token}` } });
    const clients = await call('/clients?fields=client_id,client_secret');
    assert.equal(clients.status, 403);
    assert.deepEqual(clients.json(), {
      statusCode: 403,
      error: 'Forbidden',
      message: 'Insufficient scope, expected any of: read:clients, read:client_keys, read:client_credentials, read:client_summary',
      errorCode: 'insufficient_scope',
    });
    const own = await call(`/users/${encodeURIComponent(userId)}`);
    assert.equal(own.status, 200, own.text);
    assert.equal(own.json<{ email: string }>().email, EMAIL);
  });
});
