/**
 * Gatehouse's cookies: `__Host-` cookies only, and a request carrying one of
 * them twice (cookie tossing: a second copy planted under another path or by
 * a sibling domain before the prefix existed) is refused, not first-wins.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CO_VERIFIER_COOKIE, GATEHOUSE_COOKIES, MFA_REMEMBER_COOKIE } from '../../src/authentication/cookies.js';
import { createTestApp, DOMAIN, type TestApp } from '../helpers/app.js';
import { Browser, hidden, pkce } from '../helpers/browser.js';
import { insertClient, type TestClient } from '../helpers/fixtures.js';

const REALM = 'Username-Password-Authentication';
const PASSWORD = 'Correct horse battery staple 1';
const CALLBACK = 'https://app.example.com/callback';

describe('cookies of the hosted pages', () => {
  let t: TestApp;
  let client: TestClient;
  let authorizeUrl: string;

  before(async () => {
    t = await createTestApp();
    client = await insertClient(t, {
      grant_types: ['authorization_code'],
      token_endpoint_auth_method: 'none',
      client_secret_enc: null,
      config: { callbacks: [CALLBACK] },
    });
    const conn = await t.management('POST', '/api/v2/connections', { body: { name: REALM, strategy: 'auth0', enabled_clients: [client.client_id] } });
    assert.equal(conn.statusCode, 201, conn.body);
    const user = await t.management('POST', '/api/v2/users', { body: { connection: REALM, email: 'ann@example.com', password: PASSWORD } });
    assert.equal(user.statusCode, 201, user.body);
    authorizeUrl = `/authorize?${new URLSearchParams({ client_id: client.client_id, redirect_uri: CALLBACK, response_type: 'code', code_challenge: pkce().challenge, code_challenge_method: 'S256', state: 's' })}`;
  });
  after(() => t.close());

  it('every cookie set is a __Host- cookie: Secure, Path=/, no Domain', async () => {
    const browser = new Browser(t);
    const started = await browser.get(authorizeUrl);
    const page = await browser.get(started.headers.location as string);
    const done = await browser.post('/login', { state: hidden(page.body, 'state'), csrf_token: hidden(page.body, 'csrf_token'), username: 'ann@example.com', password: PASSWORD });
    assert.equal(done.statusCode, 302, done.body);
    const set = [started, page, done].flatMap((res) => ([] as string[]).concat((res.headers['set-cookie'] as string | string[] | undefined) ?? []));
    assert.ok(set.length >= 2, 'the browser binding and the session were set');
    for (const cookie of set) {
      assert.match(cookie, /^__Host-/, cookie);
      assert.match(cookie, /; Path=\/;/, cookie);
      assert.match(cookie, /; Secure/, cookie);
      assert.doesNotMatch(cookie, /domain=/i, cookie);
    }
    // The remembered-browser cookie comes only with a second factor (test/authentication/mfa-remember-browser.test.ts checks its attributes),
    // the cross-origin verifier only from /co/authenticate (test/authentication/cross-origin.test.ts).
    assert.deepEqual([...new Set(set.map((c) => c.split('=')[0]))].sort(), GATEHOUSE_COOKIES.filter((c) => c !== MFA_REMEMBER_COOKIE && c !== CO_VERIFIER_COOKIE).sort());
  });

  it('a duplicated session or browser cookie is refused with 400 wherever it is sent', async () => {
    const browser = new Browser(t);
    assert.equal((await browser.login(authorizeUrl, 'ann@example.com', PASSWORD)).statusCode, 302);
    for (const name of GATEHOUSE_COOKIES) {
      const genuine = browser.jar.get(name)!;
      const cookie = `${name}=${'A'.repeat(43)}; ${name}=${genuine}`;
      for (const [method, url] of [['GET', authorizeUrl], ['GET', '/login?state=x'], ['POST', '/login'], ['GET', '/oidc/logout'], ['GET', '/v2/logout']] as const) {
        const res = await t.app.inject({ method, url, headers: { host: DOMAIN, cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload: method === 'POST' ? 'state=x' : undefined });
        assert.equal(res.statusCode, 400, `${method} ${url} with ${name} twice`);
        assert.deepEqual(res.json(), { error: 'invalid_request', error_description: `The cookie ${name} was sent more than once` });
        assert.equal(res.headers['set-cookie'], undefined, 'nothing is set or cleared');
      }
    }
    // The same browser with each cookie once is still logged in: the next /authorize skips the login page.
    const again = await browser.get(authorizeUrl);
    assert.equal(again.statusCode, 302);
    assert.ok((again.headers.location as string).startsWith(CALLBACK), again.headers.location as string);
  });

  it('other cookies may repeat: only Gatehouse\'s own are checked', async () => {
    const res = await t.app.inject({ method: 'GET', url: authorizeUrl, headers: { host: DOMAIN, cookie: 'theme=a; theme=b; gh_session=old; gh_session=older' } });
    assert.equal(res.statusCode, 302, res.body);
  });
});
