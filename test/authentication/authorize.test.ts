/**
 * The authorization code flow through app.inject on the real app and
 * database: GET /authorize, the login page, POST /login, the session cookie,
 * and POST /oauth/token with grant_type=authorization_code and PKCE.
 * Cookies are carried by hand.
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from 'jose';
import { createTestApp, DOMAIN, tokenRequest, type TestApp } from '../helpers/app.js';
import { authorizeErrorPage } from '../../src/authentication/pages/authorize.js';
import { pageUi, renderPage } from '../../src/authentication/pages/html.js';
import { PASSWORD_TOGGLE_SCRIPT } from '../../src/authentication/pages/password-toggle.js';
import { inlineScripts } from '../helpers/browser.js';
import { insertClient, type TestClient } from '../helpers/fixtures.js';
import { secretHash } from '../../src/domain/secrets.js';

const REALM = 'Username-Password-Authentication';
const PASSWORD = 'correct horse battery staple';
const CALLBACK = 'https://app.example.com/callback';
const ISSUER = `https://${DOMAIN}/`;
const INVALID_CODE = { error: 'invalid_grant', error_description: 'Invalid authorization code' };

function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

describe('authorization code flow: /authorize, /login, authorization_code grant', () => {
  let t: TestApp;
  let spa: TestClient;
  let web: TestClient;
  let evil: TestClient;
  let userId: string;
  let jwks: ReturnType<typeof createLocalJWKSet>;

  const get = (url: string, cookie?: string) => t.app.inject({ method: 'GET', url, headers: { host: DOMAIN, ...(cookie && { cookie }) } });

  const authorizeUrl = (client: TestClient, extra: Record<string, string> = {}) =>
    `/authorize?${new URLSearchParams({ client_id: client.client_id, response_type: 'code', redirect_uri: CALLBACK, state: 'xyz', ...extra })}`;

  const postLogin = (form: Record<string, string>, cookie?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/login',
      headers: { host: DOMAIN, 'content-type': 'application/x-www-form-urlencoded', ...(cookie && { cookie }) },
      payload: new URLSearchParams(form).toString(),
    });

  /** The `name=value` of a cookie a response sets. */
  function setCookie(res: { headers: Record<string, unknown> }, name: string): string {
    const all = ([] as string[]).concat((res.headers['set-cookie'] as string | string[] | undefined) ?? []);
    const found = all.find((c) => c.startsWith(`${name}=`));
    assert.ok(found, `no ${name} cookie set`);
    return found;
  }
  const browserOf = (page: { headers: Record<string, unknown> }) => setCookie(page, '__Host-gh_browser').split(';')[0]!;

  function hidden(body: string, name: string): string {
    const match = new RegExp(`name="${name}" value="([^"]*)"`).exec(body);
    assert.ok(match, `no ${name} in the page`);
    return match[1]!;
  }

  /** /authorize → /login → POST /login; returns the redirect Location and the session cookie. */
  async function login(client: TestClient, extra: Record<string, string> = {}): Promise<{ location: URL; cookie: string }> {
    const res = await get(authorizeUrl(client, extra));
    assert.equal(res.statusCode, 302, res.body);
    const loginUrl = res.headers.location as string;
    assert.match(loginUrl, /^\/login\?state=[A-Za-z0-9_-]{43}$/);
    // The request is bound to the browser that made it: /authorize names it with a cookie the login page needs.
    assert.match(setCookie(res, '__Host-gh_browser'), /^__Host-gh_browser=[A-Za-z0-9_-]{43}; Path=\/; Secure; HttpOnly; SameSite=Lax$/);
    const browser = browserOf(res);
    const page = await get(loginUrl, browser);
    assert.equal(page.statusCode, 200, page.body);
    const done = await postLogin(
      { state: hidden(page.body, 'state'), csrf_token: hidden(page.body, 'csrf_token'), username: 'alice@example.com', password: PASSWORD },
      browser,
    );
    assert.equal(done.statusCode, 302, done.body);
    const session = setCookie(done, '__Host-gh_session');
    assert.match(session, /^__Host-gh_session=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=\d+; Secure; HttpOnly; SameSite=None$/);
    return { location: new URL(done.headers.location as string), cookie: session.split(';')[0]! };
  }

  before(async () => {
    t = await createTestApp();
    const grants = ['authorization_code', 'refresh_token'];
    spa = await insertClient(t, {
      name: 'My SPA',
      grant_types: grants,
      token_endpoint_auth_method: 'none',
      client_secret_enc: null,
      config: { callbacks: [CALLBACK, 'https://*.example.org/cb'] },
    });
    web = await insertClient(t, { grant_types: grants, config: { callbacks: [CALLBACK] } });
    evil = await insertClient(t, { name: '<script>alert(1)</script>', grant_types: grants, config: { callbacks: [CALLBACK] } });
    const conn = await t.management('POST', '/api/v2/connections', {
      body: { name: REALM, strategy: 'auth0', enabled_clients: [spa.client_id, web.client_id, evil.client_id] },
    });
    assert.equal(conn.statusCode, 201, conn.body);
    const user = await t.management('POST', '/api/v2/users', { body: { connection: REALM, email: 'alice@example.com', password: PASSWORD } });
    assert.equal(user.statusCode, 201, user.body);
    userId = (user.json() as { user_id: string }).user_id;
    jwks = createLocalJWKSet((await get('/.well-known/jwks.json')).json() as JSONWebKeySet);
  });
  after(() => t.close());

  it('full flow: login page, code, PKCE exchange, ID token with nonce, auth_time and sid; the session skips the next login', async () => {
    const { verifier, challenge } = pkce();
    const { location, cookie } = await login(spa, {
      scope: 'openid profile offline_access',
      nonce: 'n-0S6_WzA2Mj',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    assert.equal(`${location.origin}${location.pathname}`, CALLBACK);
    assert.equal(location.searchParams.get('state'), 'xyz');
    const code = location.searchParams.get('code')!;

    const res = await tokenRequest(t.app, { grant_type: 'authorization_code', client_id: spa.client_id, code, redirect_uri: CALLBACK, code_verifier: verifier }, { form: true });
    assert.equal(res.statusCode, 200, res.body);
    const json = res.json() as Record<string, string>;
    assert.equal(json.scope, 'openid profile offline_access');
    assert.ok(json.refresh_token);
    const id = (await jwtVerify(json.id_token!, jwks, { issuer: ISSUER, audience: spa.client_id })).payload;
    assert.equal(id.sub, userId);
    assert.equal(id.nonce, 'n-0S6_WzA2Mj');
    assert.equal(typeof id.auth_time, 'number');
    assert.equal(typeof id.sid, 'string');

    // Replay: refused, and the refresh token issued with the first use is revoked.
    const replay = await tokenRequest(t.app, { grant_type: 'authorization_code', client_id: spa.client_id, code, redirect_uri: CALLBACK, code_verifier: verifier });
    assert.equal(replay.statusCode, 403);
    assert.deepEqual(replay.json(), INVALID_CODE);
    const refresh = await tokenRequest(t.app, { grant_type: 'refresh_token', client_id: spa.client_id, refresh_token: json.refresh_token! });
    assert.equal(refresh.statusCode, 403, refresh.body);

    // Second /authorize with the session cookie: a code at once, no login page.
    const second = pkce();
    const again = await get(authorizeUrl(spa, { code_challenge: second.challenge, code_challenge_method: 'S256', scope: 'openid' }), cookie);
    assert.equal(again.statusCode, 302, again.body);
    const next = new URL(again.headers.location as string);
    assert.equal(`${next.origin}${next.pathname}`, CALLBACK);
    const exchanged = await tokenRequest(t.app, {
      grant_type: 'authorization_code',
      client_id: spa.client_id,
      code: next.searchParams.get('code')!,
      redirect_uri: CALLBACK,
      code_verifier: second.verifier,
    });
    assert.equal(exchanged.statusCode, 200, exchanged.body);
    const id2 = (await jwtVerify((exchanged.json() as { id_token: string }).id_token, jwks, { audience: spa.client_id })).payload;
    assert.equal(id2.sid, id.sid, 'the same session');
    assert.equal(id2.auth_time, id.auth_time);

    // prompt=login ignores the session.
    const forced = await get(authorizeUrl(spa, { code_challenge: second.challenge, code_challenge_method: 'S256', prompt: 'login' }), cookie);
    assert.equal(forced.statusCode, 302);
    assert.match(forced.headers.location as string, /^\/login\?state=/);
  });

  it('confidential client: code exchange with the secret, without PKCE; form_post response mode', async () => {
    const res = await get(authorizeUrl(web, { response_mode: 'form_post' }));
    const page = await get(res.headers.location as string, browserOf(res));
    const done = await postLogin({ state: hidden(page.body, 'state'), csrf_token: hidden(page.body, 'csrf_token'), email: 'alice@example.com', password: PASSWORD }, browserOf(res));
    assert.equal(done.statusCode, 200, done.body);
    assert.match(done.body, new RegExp(`<form method="post" action="${CALLBACK}">`));
    const csp = done.headers['content-security-policy'] as string;
    assert.match(csp, /script-src 'sha256-[A-Za-z0-9+/=]+'/);
    assert.match(csp, /form-action https:\/\/app\.example\.com/);
    assert.equal(hidden(done.body, 'state'), 'xyz');
    const code = hidden(done.body, 'code');
    const wrongUri = await tokenRequest(t.app, { grant_type: 'authorization_code', client_id: web.client_id, client_secret: web.client_secret, code, redirect_uri: 'https://app.example.com/other' });
    assert.equal(wrongUri.statusCode, 403);
    const ok = await tokenRequest(t.app, { grant_type: 'authorization_code', client_id: web.client_id, client_secret: web.client_secret, code, redirect_uri: CALLBACK });
    assert.equal(ok.statusCode, 200, ok.body);
  });

  it('prompt=none without a session: login_required to the redirect_uri', async () => {
    const { challenge } = pkce();
    const res = await get(authorizeUrl(spa, { prompt: 'none', code_challenge: challenge, code_challenge_method: 'S256' }));
    assert.equal(res.statusCode, 302);
    const location = new URL(res.headers.location as string);
    assert.equal(location.searchParams.get('error'), 'login_required');
    assert.equal(location.searchParams.get('error_description'), 'Login required');
    assert.equal(location.searchParams.get('state'), 'xyz');
  });

  it('a redirect_uri not in the callbacks: 400 page, no Location; wildcard callbacks match one label', async () => {
    for (const uri of ['https://evil.example.com/callback', `${CALLBACK}/extra`, 'https://a.b.example.org/cb', 'https://x@evil.com/.example.org/cb']) {
      const res = await get(authorizeUrl(spa, { redirect_uri: uri }));
      assert.equal(res.statusCode, 400, uri);
      assert.equal(res.headers.location, undefined);
      assert.match(res.body, /Callback URL mismatch/);
    }
    const { challenge } = pkce();
    const ok = await get(authorizeUrl(spa, { redirect_uri: 'https://tenant1.example.org/cb', code_challenge: challenge, code_challenge_method: 'S256' }));
    assert.equal(ok.statusCode, 302);
  });

  it('a wildcard callback is never itself a redirect_uri: only concrete hosts match it', async () => {
    const mismatch = renderPage(authorizeErrorPage('Callback URL mismatch. The provided redirect_uri is not in the list of allowed callback URLs.'), pageUi({ language: 'en', companyName: 'tenant' })).html.value;
    const { challenge } = pkce();
    const pkceParams = { code_challenge: challenge, code_challenge_method: 'S256' };
    // A callback stored before registration refused `*` outside the first label is no pattern, and not a literal either.
    const legacy = await insertClient(t, {
      grant_types: ['authorization_code'],
      config: { callbacks: ['https://a.*.example.net/cb'] },
    });
    for (const [client, uri] of [
      [spa, 'https://*.example.org/cb'],
      [spa, 'https://*.example.org/cb?x=1'],
      [legacy, 'https://a.*.example.net/cb'],
    ] as const) {
      const res = await get(authorizeUrl(client, { redirect_uri: uri, ...pkceParams }));
      assert.equal(res.statusCode, 400, uri);
      assert.equal(res.headers.location, undefined, uri);
      assert.equal(res.body, mismatch, uri);
    }
    const concrete = await get(authorizeUrl(spa, { redirect_uri: 'https://shop.example.org/cb', ...pkceParams, prompt: 'none' }));
    assert.equal(concrete.statusCode, 302);
    assert.equal(concrete.headers.location, 'https://shop.example.org/cb?error=login_required&error_description=Login+required&state=xyz&iss=https%3A%2F%2Ftenant.test%2F');
  });

  it('query response mode: the parameters go before a fragment the callback has', async () => {
    // Registration refuses fragments now; a callback stored earlier may still have one.
    const callback = 'https://app.example.com/cb?tab=1#section';
    const client = await insertClient(t, { grant_types: ['authorization_code'], config: { callbacks: [callback] } });
    const res = await get(authorizeUrl(client, { redirect_uri: callback, prompt: 'none' }));
    assert.equal(res.statusCode, 302, res.body);
    assert.equal(res.headers.location, 'https://app.example.com/cb?tab=1&error=login_required&error_description=Login+required&state=xyz&iss=https%3A%2F%2Ftenant.test%2F#section');
  });

  it('errors after the redirect_uri is trusted go to it: response_type, plain PKCE, public client without PKCE', async () => {
    const cases: [Record<string, string>, string][] = [
      [{ response_type: 'code foo' }, 'unsupported_response_type'],
      [{ code_challenge: pkce().challenge, code_challenge_method: 'plain' }, 'invalid_request'],
      [{}, 'invalid_request'],
    ];
    for (const [extra, error] of cases) {
      const res = await get(authorizeUrl(spa, extra));
      assert.equal(res.statusCode, 302);
      assert.equal(new URL(res.headers.location as string).searchParams.get('error'), error, JSON.stringify(extra));
    }
  });

  it('PKCE mismatch: invalid_grant "Failed to verify code verifier"', async () => {
    const { challenge } = pkce();
    const { location } = await login(spa, { code_challenge: challenge, code_challenge_method: 'S256' });
    const res = await tokenRequest(t.app, {
      grant_type: 'authorization_code',
      client_id: spa.client_id,
      code: location.searchParams.get('code')!,
      redirect_uri: CALLBACK,
      code_verifier: pkce().verifier,
    });
    assert.equal(res.statusCode, 403);
    assert.deepEqual(res.json(), { error: 'invalid_grant', error_description: 'Failed to verify code verifier' });
    const unknown = await tokenRequest(t.app, { grant_type: 'authorization_code', client_id: spa.client_id, code: 'nope', code_verifier: pkce().verifier });
    assert.deepEqual(unknown.json(), INVALID_CODE);
  });

  it('login CSRF token missing or wrong: refused', async () => {
    const res = await get(authorizeUrl(web));
    const browser = browserOf(res);
    const page = await get(res.headers.location as string, browser);
    const state = hidden(page.body, 'state');
    for (const csrf of [undefined, 'wrong', hidden(page.body, 'csrf_token').replace(/^./, (c) => (c === 'A' ? 'B' : 'A'))]) {
      const refused = await postLogin({ state, ...(csrf !== undefined && { csrf_token: csrf }), email: 'alice@example.com', password: PASSWORD }, browser);
      assert.equal(refused.statusCode, 403);
      assert.equal(refused.headers['set-cookie'], undefined);
    }
    // Another browser with the same state (a leaked or planted login link) is shown no login page:
    // the transaction belongs to the browser that started it.
    const victim = await get(res.headers.location as string);
    assert.equal(victim.statusCode, 400);
    assert.match(victim.body, /This login page is no longer valid/);
    // Login CSRF: the right token, posted by another browser (the attacker's token in the victim's browser).
    for (const cookie of [undefined, browserOf(victim)]) {
      const refused = await postLogin({ state, csrf_token: hidden(page.body, 'csrf_token'), email: 'alice@example.com', password: PASSWORD }, cookie);
      assert.equal(refused.statusCode, 403);
      assert.equal(refused.headers['set-cookie'], undefined);
    }
    // Even a CSRF token that is valid for the other browser (no page gives it one) completes nothing there.
    const other = browserOf(victim);
    const otherToken = t.ctx.formTokens('gatehouse login csrf').token(t.tenant.id, secretHash(state), other.slice(other.indexOf('=') + 1));
    const crossBrowser = await postLogin({ state, csrf_token: otherToken, email: 'alice@example.com', password: PASSWORD }, other);
    assert.equal(crossBrowser.statusCode, 400);
    assert.match(crossBrowser.body, /This login page is no longer valid/);
    assert.equal(crossBrowser.headers['set-cookie'], undefined, 'no session for the other browser');
    const wrong = await postLogin({ state, csrf_token: hidden(page.body, 'csrf_token'), email: 'alice@example.com', password: 'wrong' }, browser);
    assert.equal(wrong.statusCode, 400);
    assert.match(wrong.body, /<p id="error" class="error" role="alert">Wrong email or password\.<\/p>/);
    assert.match(wrong.body, /id="password" name="password"[^>]*aria-describedby="error"/);
  });

  it('the login page escapes the client name and sends a strict CSP', async () => {
    const res = await get(authorizeUrl(evil));
    const page = await get(res.headers.location as string, browserOf(res));
    assert.equal(page.statusCode, 200);
    assert.deepEqual(inlineScripts(page.body), [PASSWORD_TOGGLE_SCRIPT], 'no script but the password control');
    assert.ok(page.body.includes('&lt;script&gt;alert(1)&lt;/script&gt;'));
    // form-action also governs the redirect that answers the post: the callback's origin, and nothing else.
    assert.match(page.headers['content-security-policy'] as string, /^default-src 'none'; form-action 'self' https:\/\/app\.example\.com; style-src 'sha256-[A-Za-z0-9+\/=]+' 'sha256-[A-Za-z0-9+\/=]+'; script-src 'sha256-[A-Za-z0-9+\/=]+'; base-uri 'none'; frame-ancestors 'none'$/);
    assert.match(page.body, /<label for="username">/);
    assert.match(page.body, /<label for="password">/);
  });

  it('discovery lists the authorization endpoint', async () => {
    const doc = (await get('/.well-known/openid-configuration')).json() as Record<string, unknown>;
    assert.equal(doc.authorization_endpoint, `https://${DOMAIN}/authorize`);
    assert.deepEqual(doc.response_types_supported, ['code', 'token', 'id_token', 'id_token token', 'code id_token', 'code token', 'code id_token token']);
    assert.deepEqual(doc.response_modes_supported, ['query', 'fragment', 'form_post', 'web_message']);
    assert.deepEqual(doc.code_challenge_methods_supported, ['S256']);
  });
});
