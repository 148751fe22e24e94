/**
 * /authorize beyond the plain code flow, through app.inject on the real app
 * and database: implicit and hybrid response types, the fragment and
 * web_message modes, max_age, sso_disabled, the signup, forgot-password and
 * consent pages, screen_hint and login_hint, and CORS on the endpoints
 * JavaScript applications call. Cookies are carried by a small jar.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from 'jose';
import type { LightMyRequestResponse } from 'fastify';
import { readOutbox } from '../../src/platform/mail/index.js';
import { createTestApp, DOMAIN, tokenRequest, withClockAdvanced, type TestApp } from '../helpers/app.js';
import { hidden, Jar, pkce } from '../helpers/browser.js';
import { insertClient, type TestClient } from '../helpers/fixtures.js';

const REALM = 'Username-Password-Authentication';
const PASSWORD = 'Correct horse battery staple 1';
const CALLBACK = 'https://app.example.com/callback';
const APP_ORIGIN = 'https://app.example.com';
const API = 'https://api.example.com';

const halfHash = (value: string) => createHash('sha256').update(value).digest().subarray(0, 16).toString('base64url');

describe('/authorize: response types, modes, hosted pages, consent, CORS', () => {
  let t: TestApp;
  let spa: TestClient;
  let implicit: TestClient;
  let thirdParty: TestClient;
  let noSso: TestClient;
  let jwks: ReturnType<typeof createLocalJWKSet>;

  async function get(url: string, jar?: Jar): Promise<LightMyRequestResponse> {
    const res = await t.app.inject({ method: 'GET', url, headers: { host: DOMAIN, ...(jar && { cookie: jar.header() }) } });
    jar?.take(res);
    return res;
  }

  async function post(url: string, form: Record<string, string>, jar?: Jar): Promise<LightMyRequestResponse> {
    const res = await t.app.inject({
      method: 'POST',
      url,
      headers: { host: DOMAIN, 'content-type': 'application/x-www-form-urlencoded', ...(jar && { cookie: jar.header() }) },
      payload: new URLSearchParams(form).toString(),
    });
    jar?.take(res);
    return res;
  }

  const authorizeUrl = (client: TestClient, params: Record<string, string>) =>
    `/authorize?${new URLSearchParams({ client_id: client.client_id, redirect_uri: CALLBACK, state: 'st', ...params })}`;

  /** Follows /authorize to the login page and logs in; returns the last response. */
  async function loginThrough(jar: Jar, url: string, identifier = 'alice@example.com', password = PASSWORD): Promise<LightMyRequestResponse> {
    const res = await get(url, jar);
    assert.equal(res.statusCode, 302, res.body);
    const page = await get(res.headers.location as string, jar);
    assert.equal(page.statusCode, 200, page.body);
    return post('/login', { state: hidden(page.body, 'state'), csrf_token: hidden(page.body, 'csrf_token'), username: identifier, password }, jar);
  }

  function fragmentOf(res: LightMyRequestResponse): URLSearchParams {
    assert.equal(res.statusCode, 302, res.body);
    const location = res.headers.location as string;
    assert.ok(location.startsWith(`${CALLBACK}#`), location);
    assert.ok(!location.includes('?'), 'nothing in the query');
    return new URLSearchParams(location.slice(location.indexOf('#') + 1));
  }

  before(async () => {
    t = await createTestApp();
    const config = (extra: Record<string, unknown> = {}) => ({ callbacks: [CALLBACK], web_origins: [APP_ORIGIN], ...extra });
    spa = await insertClient(t, {
      name: 'The SPA',
      grant_types: ['authorization_code', 'refresh_token'],
      token_endpoint_auth_method: 'none',
      client_secret_enc: null,
      config: config({ allowed_origins: ['https://*.partner.example'] }),
    });
    implicit = await insertClient(t, { grant_types: ['implicit', 'authorization_code'], config: config() });
    thirdParty = await insertClient(t, { name: 'Partner <App>', is_first_party: 0, grant_types: ['authorization_code'], config: config() });
    noSso = await insertClient(t, { grant_types: ['authorization_code'], config: config({ sso_disabled: true }) });
    const api = await t.management('POST', '/api/v2/resource-servers', {
      body: { identifier: API, name: 'Calendar API', scopes: [{ value: 'read:events', description: 'Read your <events>' }] },
    });
    assert.equal(api.statusCode, 201, api.body);
    const conn = await t.management('POST', '/api/v2/connections', {
      body: { name: REALM, strategy: 'auth0', enabled_clients: [spa.client_id, implicit.client_id, thirdParty.client_id, noSso.client_id] },
    });
    assert.equal(conn.statusCode, 201, conn.body);
    const user = await t.management('POST', '/api/v2/users', { body: { connection: REALM, email: 'alice@example.com', password: PASSWORD, name: 'Alice' } });
    assert.equal(user.statusCode, 201, user.body);
    jwks = createLocalJWKSet((await get('/.well-known/jwks.json')).json() as JSONWebKeySet);
  });
  after(() => t.close());

  describe('implicit and hybrid response types', () => {
    it('id_token token: tokens in the fragment, at_hash binding the access token, nonce echoed, no refresh token', async () => {
      const jar = new Jar();
      const done = await loginThrough(jar, authorizeUrl(implicit, { response_type: 'id_token token', nonce: 'n1', scope: 'openid email read:events offline_access', audience: API }));
      const params = fragmentOf(done);
      assert.equal(params.get('state'), 'st');
      assert.equal(params.get('token_type'), 'Bearer');
      assert.equal(params.get('expires_in'), '86400');
      assert.equal(params.get('scope'), 'openid email read:events', 'offline_access dropped');
      assert.equal(params.get('refresh_token'), null);
      assert.equal(params.get('code'), null);
      const access = (await jwtVerify(params.get('access_token')!, jwks, { audience: API })).payload;
      assert.equal(access.gty, undefined, 'no gty for browser grants');
      const id = (await jwtVerify(params.get('id_token')!, jwks, { audience: implicit.client_id })).payload;
      assert.equal(id.nonce, 'n1');
      assert.equal(id.email, 'alice@example.com');
      assert.equal(id.at_hash, halfHash(params.get('access_token')!));
      assert.equal(typeof id.auth_time, 'number');
    });

    it('token without an audience: a /userinfo token of 7200 s; id_token alone carries no access token', async () => {
      const jar = new Jar();
      const first = fragmentOf(await loginThrough(jar, authorizeUrl(implicit, { response_type: 'token', scope: 'openid' })));
      assert.equal(first.get('expires_in'), '7200');
      const info = await t.app.inject({ method: 'GET', url: '/userinfo', headers: { host: DOMAIN, authorization: `Bearer ${first.get('access_token')}` } });
      assert.equal(info.statusCode, 200, info.body);
      const second = fragmentOf(await get(authorizeUrl(implicit, { response_type: 'id_token', nonce: 'n2', scope: 'openid profile' }), jar));
      assert.equal(second.get('access_token'), null);
      const id = (await jwtVerify(second.get('id_token')!, jwks, { audience: implicit.client_id })).payload;
      assert.equal(id.name, 'Alice');
      assert.equal(id.at_hash, undefined);
    });

    it('code id_token: a code and an ID token with c_hash, in the fragment; the code exchanges', async () => {
      const jar = new Jar();
      const params = fragmentOf(await loginThrough(jar, authorizeUrl(implicit, { response_type: 'code id_token', nonce: 'n3', scope: 'openid' })));
      const code = params.get('code')!;
      const id = (await jwtVerify(params.get('id_token')!, jwks, { audience: implicit.client_id })).payload;
      assert.equal(id.c_hash, halfHash(code));
      const exchanged = await tokenRequest(t.app, { grant_type: 'authorization_code', client_id: implicit.client_id, client_secret: implicit.client_secret, code, redirect_uri: CALLBACK });
      assert.equal(exchanged.statusCode, 200, exchanged.body);
    });

    it('refusals go to the fragment: no nonce, no implicit grant, query mode with tokens, third-party client', async () => {
      const cases: [TestClient, Record<string, string>, string, RegExp][] = [
        [implicit, { response_type: 'id_token' }, 'invalid_request', /nonce/],
        [spa, { response_type: 'token' }, 'unauthorized_client', /implicit/],
        [implicit, { response_type: 'token', response_mode: 'query' }, 'invalid_request', /query/],
        [thirdParty, { response_type: 'token' }, 'unsupported_response_type', /third party/],
      ];
      for (const [client, params, error, description] of cases) {
        const answer = fragmentOf(await get(authorizeUrl(client, params)));
        assert.equal(answer.get('error'), error, JSON.stringify(params));
        assert.match(answer.get('error_description')!, description);
        assert.equal(answer.get('state'), 'st');
      }
    });
  });

  describe('web_message', () => {
    it('posts the response to the redirect origin from a page only that origin may frame', async () => {
      const jar = new Jar();
      const { challenge } = pkce();
      await loginThrough(jar, authorizeUrl(spa, { response_type: 'code', code_challenge: challenge, code_challenge_method: 'S256' }));
      const res = await get(authorizeUrl(spa, { response_type: 'code', response_mode: 'web_message', prompt: 'none', code_challenge: challenge, code_challenge_method: 'S256' }), jar);
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.headers['x-frame-options'], undefined);
      const csp = res.headers['content-security-policy'] as string;
      assert.match(csp, new RegExp(`frame-ancestors ${APP_ORIGIN}$`));
      const script = /<script>([\s\S]*)<\/script>/.exec(res.body)![1]!;
      assert.ok(csp.includes(`'sha256-${createHash('sha256').update(script).digest('base64')}'`), 'the script is allowed by its hash');
      const message = /postMessage\((\{.*\}), "https:\/\/app\.example\.com"\);$/.exec(script);
      assert.ok(message, script);
      const data = JSON.parse(message[1]!) as { type: string; response: Record<string, string> };
      assert.equal(data.type, 'authorization_response');
      assert.equal(data.response.state, 'st');
      assert.match(data.response.code!, /^[A-Za-z0-9_-]{43}$/);
    });

    it('without a session under prompt=none: login_required through the message; a script-breaking state stays inert', async () => {
      const res = await get(authorizeUrl(spa, { response_type: 'code', response_mode: 'web_message', prompt: 'none', state: '</script><script>alert(1)</script>', code_challenge: pkce().challenge, code_challenge_method: 'S256' }));
      assert.equal(res.statusCode, 200);
      assert.ok(!res.body.includes('</script><script>'));
      assert.match(res.body, /"error":"login_required"/);
      assert.match(res.body, /\\u003c\/script\\u003e/);
    });

    it('a redirect origin outside the Allowed Web Origins: an error page, nothing posted', async () => {
      const other = await insertClient(t, { grant_types: ['authorization_code'], config: { callbacks: [CALLBACK], web_origins: ['https://elsewhere.example'] } });
      const refused = await get(authorizeUrl(other, { response_type: 'code', response_mode: 'web_message' }));
      assert.equal(refused.statusCode, 400);
      assert.equal(refused.headers.location, undefined);
      assert.match(refused.body, /allowed web origins/);
    });
  });

  describe('sessions: max_age, sso_disabled', () => {
    it('max_age: a login older than it must log in again; prompt=none then gets login_required', async () => {
      const jar = new Jar();
      const { challenge } = pkce();
      const pk = { code_challenge: challenge, code_challenge_method: 'S256', response_type: 'code' };
      await loginThrough(jar, authorizeUrl(spa, pk));
      const fresh = await get(authorizeUrl(spa, { ...pk, max_age: '3600' }), jar);
      assert.match(fresh.headers.location as string, /^https:\/\/app\.example\.com\/callback\?code=/);
      await withClockAdvanced(t, 120_000, async () => {
        const stale = await get(authorizeUrl(spa, { ...pk, max_age: '60' }), jar);
        assert.match(stale.headers.location as string, /^\/login\?state=/);
        const none = await get(authorizeUrl(spa, { ...pk, max_age: '60', prompt: 'none' }), jar);
        assert.equal(new URL(none.headers.location as string).searchParams.get('error'), 'login_required');
      });
      const bad = await get(authorizeUrl(spa, { ...pk, max_age: '-1' }), jar);
      assert.equal(new URL(bad.headers.location as string).searchParams.get('error'), 'invalid_request');
    });

    it('sso_disabled: the client always shows the login page, even with a session', async () => {
      const jar = new Jar();
      await loginThrough(jar, authorizeUrl(noSso, { response_type: 'code' }));
      assert.ok(jar.has('__Host-gh_session'));
      const again = await get(authorizeUrl(noSso, { response_type: 'code' }), jar);
      assert.match(again.headers.location as string, /^\/login\?state=/);
    });
  });

  describe('hosted signup, login hint and forgot password', () => {
    it('screen_hint=signup: the signup page creates the user, logs them in and answers the request', async () => {
      const jar = new Jar();
      const res = await get(authorizeUrl(implicit, { response_type: 'code', screen_hint: 'signup', login_hint: 'bob@example.com' }), jar);
      assert.match(res.headers.location as string, /^\/signup\?state=/);
      const page = await get(res.headers.location as string, jar);
      assert.equal(page.statusCode, 200);
      assert.match(page.body, /<label for="email">Email address<\/label>\n<input type="email" id="email" name="email" value="bob@example\.com"/);
      const form = { state: hidden(page.body, 'state'), csrf_token: hidden(page.body, 'csrf_token'), email: 'bob@example.com' };

      const weak = await post('/signup', { ...form, password: 'short' }, jar);
      assert.equal(weak.statusCode, 400);
      assert.match(weak.body, /<p id="error" class="error" role="alert">Your password is too weak\. .*lower case letters \(a-z\), upper case letters/);
      assert.match(weak.body, /id="password" name="password"[^>]*aria-invalid="true" aria-describedby="error policy"/);

      const done = await post('/signup', { ...form, password: PASSWORD }, jar);
      assert.equal(done.statusCode, 302, /role="alert">([^<]*)/.exec(done.body)?.[1]);
      assert.match(done.headers.location as string, /^https:\/\/app\.example\.com\/callback\?code=/);
      assert.ok(jar.has('__Host-gh_session'));
      const users = ((await t.management('GET', '/api/v2/users')).json() as { email: string; email_verified: boolean }[]).filter((u) => u.email === 'bob@example.com');
      assert.equal(users.length, 1);
      assert.equal(users[0]!.email_verified, false);
      assert.equal(readOutbox(t.ctx).filter((m) => m.to === 'bob@example.com').length, 1, 'a verification mail');

      // The same address again, from another browser: refused on the page.
      const other = new Jar();
      const again = await get((await get(authorizeUrl(implicit, { response_type: 'code', screen_hint: 'signup' }), other)).headers.location as string, other);
      const exists = await post('/signup', { state: hidden(again.body, 'state'), csrf_token: hidden(again.body, 'csrf_token'), email: 'BOB@example.com', password: PASSWORD }, other);
      assert.equal(exists.statusCode, 400);
      assert.match(exists.body, /already exists/);
      assert.ok(!other.has('__Host-gh_session'));
    });

    it('the login page prefills login_hint (escaped) and links to signup and forgot password', async () => {
      const jar = new Jar();
      const res = await get(authorizeUrl(implicit, { response_type: 'code', login_hint: '"><script>x</script>' }), jar);
      const page = await get(res.headers.location as string, jar);
      assert.match(page.body, /value="&quot;&gt;&lt;script&gt;x&lt;\/script&gt;"/);
      const state = hidden(page.body, 'state');
      assert.ok(page.body.includes(`href="/signup?state=${state}"`));
      assert.ok(page.body.includes(`href="/forgot-password?state=${state}"`));
    });

    it('forgot password: the same answer for any address, a reset mail only for an account', async () => {
      const jar = new Jar();
      const res = await get(authorizeUrl(implicit, { response_type: 'code' }), jar);
      const state = new URL(res.headers.location as string, 'https://x').searchParams.get('state')!;
      const page = await get(`/forgot-password?state=${state}`, jar);
      assert.equal(page.statusCode, 200);
      const before = readOutbox(t.ctx).length;
      const answers = [];
      for (const email of ['alice@example.com', 'nobody@example.com']) {
        const sent = await post('/forgot-password', { state, csrf_token: hidden(page.body, 'csrf_token'), email }, jar);
        assert.equal(sent.statusCode, 200);
        answers.push(sent.body);
      }
      assert.equal(answers[0], answers[1]);
      const mails = readOutbox(t.ctx).slice(before);
      assert.deepEqual(mails.map((m) => m.to), ['alice@example.com']);
      assert.match(mails[0]!.text, /\/reset-password\?ticket=/);
      const forged = await post('/forgot-password', { state, csrf_token: 'forged', email: 'alice@example.com' }, jar);
      assert.equal(forged.statusCode, 403);
    });
  });

  describe('consent for third-party clients', () => {
    const consentUrl = (params: Record<string, string> = {}) => authorizeUrl(thirdParty, { response_type: 'code', scope: 'openid read:events', audience: API, ...params });

    it('asks once: accept records the grant and answers; the next request skips the page; prompt=consent asks again', async () => {
      const jar = new Jar();
      const done = await loginThrough(jar, consentUrl());
      assert.equal(done.statusCode, 302);
      assert.match(done.headers.location as string, /^\/consent\?state=/);
      const page = await get(done.headers.location as string, jar);
      assert.equal(page.statusCode, 200);
      assert.ok(page.body.includes('Partner &lt;App&gt;'));
      assert.ok(page.body.includes('Read your &lt;events&gt;'));
      assert.ok(page.body.includes('Calendar API'));
      const accepted = await post('/consent', { state: hidden(page.body, 'state'), csrf_token: hidden(page.body, 'csrf_token'), decision: 'accept' }, jar);
      assert.equal(accepted.statusCode, 302, accepted.body);
      assert.match(accepted.headers.location as string, /^https:\/\/app\.example\.com\/callback\?code=.*&state=st&iss=https%3A%2F%2Ftenant\.test%2F$/);

      const grants = (await t.management('GET', `/api/v2/grants?client_id=${thirdParty.client_id}`)).json() as { audience: string; scope: string[] }[];
      assert.equal(grants.length, 1);
      assert.equal(grants[0]!.audience, API);
      assert.deepEqual([...grants[0]!.scope].sort(), ['openid', 'read:events']);

      const second = await get(consentUrl(), jar);
      assert.match(second.headers.location as string, /^https:\/\/app\.example\.com\/callback\?code=/);
      const forced = await get(consentUrl({ prompt: 'consent' }), jar);
      assert.match(forced.headers.location as string, /^\/consent\?state=/);
    });

    it('decline: access_denied to the callback; prompt=none without consent: consent_required; a forged post is refused', async () => {
      const jar = new Jar();
      const done = await loginThrough(jar, consentUrl({ scope: 'openid email' }));
      const page = await get(done.headers.location as string, jar);
      const forged = await post('/consent', { state: hidden(page.body, 'state'), csrf_token: 'x', decision: 'accept' }, jar);
      assert.equal(forged.statusCode, 403);
      const declined = await post('/consent', { state: hidden(page.body, 'state'), csrf_token: hidden(page.body, 'csrf_token'), decision: 'deny' }, jar);
      const location = new URL(declined.headers.location as string);
      assert.equal(location.searchParams.get('error'), 'access_denied');
      assert.equal(location.searchParams.get('state'), 'st');
      const none = await get(consentUrl({ scope: 'openid email', prompt: 'none' }), jar);
      assert.equal(new URL(none.headers.location as string).searchParams.get('error'), 'consent_required');
    });

    it('third-party clients may not use screen_hint', async () => {
      const res = await get(consentUrl({ screen_hint: 'signup' }));
      assert.equal(new URL(res.headers.location as string).searchParams.get('error'), 'invalid_request');
    });
  });

  describe('CORS', () => {
    const corsToken = (origin: string, body: Record<string, string>) =>
      t.app.inject({ method: 'POST', url: '/oauth/token', headers: { host: DOMAIN, origin, 'content-type': 'application/json' }, payload: JSON.stringify(body) });

    it('the token endpoint answers the client origins (callbacks, web_origins, allowed_origins wildcard), refuses others', async () => {
      for (const origin of [APP_ORIGIN, 'https://shop.partner.example']) {
        const res = await corsToken(origin, { grant_type: 'refresh_token', client_id: spa.client_id, refresh_token: 'unknown' });
        assert.equal(res.statusCode, 403, 'the grant itself fails');
        assert.equal(res.headers['access-control-allow-origin'], origin, 'but the page may read why');
        assert.equal((res.json() as { error: string }).error, 'invalid_grant');
      }
      for (const origin of ['https://evil.example', 'https://a.b.partner.example', 'https://app.example.com.evil.example', 'https://*.partner.example']) {
        const res = await corsToken(origin, { grant_type: 'refresh_token', client_id: spa.client_id, refresh_token: 'unknown' });
        assert.equal(res.statusCode, 403);
        assert.equal(res.body, `Origin ${origin} is not allowed.`);
        assert.equal(res.headers['access-control-allow-origin'], undefined);
      }
    });

    it('preflights allow the SDK headers; discovery, JWKS and userinfo answer any origin', async () => {
      const pre = await t.app.inject({
        method: 'OPTIONS',
        url: '/oauth/token',
        headers: { host: DOMAIN, origin: APP_ORIGIN, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, auth0-client, x-evil' },
      });
      assert.equal(pre.statusCode, 204);
      assert.equal(pre.headers['access-control-allow-origin'], APP_ORIGIN);
      assert.equal(pre.headers['access-control-allow-methods'], 'POST');
      assert.equal(pre.headers['access-control-allow-headers'], 'content-type, auth0-client');
      assert.equal(pre.headers['access-control-allow-credentials'], undefined);
      for (const url of ['/.well-known/openid-configuration', '/.well-known/jwks.json']) {
        const res = await t.app.inject({ method: 'GET', url, headers: { host: DOMAIN, origin: 'https://any.example' } });
        assert.equal(res.headers['access-control-allow-origin'], '*');
      }
      const noOrigin = await get('/.well-known/jwks.json');
      assert.equal(noOrigin.headers['access-control-allow-origin'], undefined);
    });
  });
});
