/**
 * Remember this browser: after a second factor in the hosted login, the
 * browser's `__Host-gh_mfa` cookie lets the same user skip the MFA step in
 * that browser for 30 days (`mfa_remember_browser`), unless `acr_values`
 * asks for MFA; not in another browser, not after it expired, not once the
 * user's factors changed, not once the Management API's
 * invalidate-remember-browser ran for the user.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { Secret, TOTP } from 'otpauth';
import { BROWSER_COOKIE, MFA_REMEMBER_COOKIE } from '../../src/authentication/cookies.js';
import { MULTI_FACTOR_ACR } from '../../src/authentication/interaction/steps/mfa.js';
import { createTestApp, withClockAdvanced, type TestApp } from '../helpers/app.js';
import { authorizeUrl, Browser, hidden, redirectParams } from '../helpers/browser.js';
import { insertClient, type TestClient } from '../helpers/fixtures.js';

const REALM = 'Username-Password-Authentication';
const PASSWORD = 'Correct horse battery staple 1';
const CALLBACK = 'https://app.example.com/callback';
const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

describe('remember this browser after a second factor', () => {
  let t: TestApp;
  let app: TestClient;
  let userId: string;

  const mgmt = async (method: string, url: string, body?: unknown) => {
    const res = await t.management(method, url, body === undefined ? {} : { body });
    assert.ok(res.statusCode < 300, `${method} ${url}: ${res.statusCode} ${res.body}`);
    return res;
  };
  const code = (secret: string, step = 0) => new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: t.ctx.now() + step * 30_000 });
  const path = (res: LightMyRequestResponse) => new URL(res.headers.location as string, 'https://x').pathname;

  /** A browser holding only these cookies (no session): the same browser after its session ended. */
  const browserWith = (cookies: Record<string, string>) => {
    const browser = new Browser(t);
    browser.jar.take({ headers: { 'set-cookie': Object.entries(cookies).map(([k, v]) => `${k}=${v}; Path=/`) } } as unknown as LightMyRequestResponse);
    return browser;
  };

  /** The password login; passes the MFA step with a code when it comes. Returns where the login led and the browser. */
  const login = async (browser: Browser, params: Record<string, string> = {}) => {
    const done = await browser.login(authorizeUrl(app.client_id, CALLBACK, params), 'remember@example.com', PASSWORD);
    assert.equal(done.statusCode, 302, done.body);
    return done;
  };
  const passMfa = async (browser: Browser, done: LightMyRequestResponse, step: number) => {
    const page = await browser.get(done.headers.location as string);
    const ok = await browser.post('/mfa', { state: hidden(page.body, 'state'), csrf_token: hidden(page.body, 'csrf_token'), method: 'otp', code: code(SECRET, step) });
    assert.ok(redirectParams(ok, CALLBACK).get('code'), ok.body);
    return ok;
  };

  before(async () => {
    t = await createTestApp();
    app = await insertClient(t, { grant_types: ['authorization_code'], config: { callbacks: [CALLBACK] } });
    await mgmt('POST', '/api/v2/connections', { name: REALM, strategy: 'auth0', enabled_clients: [app.client_id] });
    await mgmt('PUT', '/api/v2/guardian/factors/otp', { enabled: true });
    await mgmt('PUT', '/api/v2/guardian/policies', ['all-applications']);
    userId = ((await mgmt('POST', '/api/v2/users', { connection: REALM, email: 'remember@example.com', password: PASSWORD })).json() as { user_id: string }).user_id;
    await mgmt('POST', `/api/v2/users/${encodeURIComponent(userId)}/authentication-methods`, { type: 'totp', totp_secret: SECRET });
  });
  after(() => t.close());

  it('a second factor sets the cookie; the next login in that browser skips MFA, unless acr_values asks, or the browser, the time or the factors differ', async () => {
    const first = new Browser(t);
    const done = await login(first);
    assert.equal(path(done), '/mfa');
    const passed = await passMfa(first, done, 0);
    const set = ([] as string[]).concat((passed.headers['set-cookie'] as string | string[] | undefined) ?? []).find((c) => c.startsWith(`${MFA_REMEMBER_COOKIE}=`));
    assert.ok(set, 'the browser is remembered');
    assert.match(set, /; Path=\/; Max-Age=2592000; Secure; HttpOnly; SameSite=Lax$/);
    const remembered = { [BROWSER_COOKIE]: first.jar.get(BROWSER_COOKIE)!, [MFA_REMEMBER_COOKIE]: first.jar.get(MFA_REMEMBER_COOKIE)! };

    // The same browser, its session over: no MFA step.
    const again = await login(browserWith(remembered));
    assert.ok(redirectParams(again, CALLBACK).get('code'), 'straight back to the application');

    // acr_values asking for MFA asks anyway.
    assert.equal(path(await login(browserWith(remembered), { acr_values: MULTI_FACTOR_ACR })), '/mfa');

    // The cookie is worth nothing in another browser.
    assert.equal(path(await login(browserWith({ [MFA_REMEMBER_COOKIE]: remembered[MFA_REMEMBER_COOKIE] }))), '/mfa');
    // Nor tampered with (a later expiry).
    const [hash, expiry, mac] = remembered[MFA_REMEMBER_COOKIE].split('.');
    assert.equal(path(await login(browserWith({ ...remembered, [MFA_REMEMBER_COOKIE]: `${hash}.${Number(expiry) + 86400}.${mac}` }))), '/mfa');

    // Nor after 30 days.
    const expired = await withClockAdvanced(t, 31 * 24 * 3600 * 1000, () => login(browserWith(remembered)));
    assert.equal(path(expired), '/mfa');
  });

  it('asked again once invalidate-remember-browser ran for the user; a browser remembered afterwards is remembered again', async () => {
    // Ten minutes on: codes of their own, none the other tests spent.
    await withClockAdvanced(t, 600_000, async () => {
      const first = new Browser(t);
      await passMfa(first, await login(first), 0);
      const remembered = { [BROWSER_COOKIE]: first.jar.get(BROWSER_COOKIE)!, [MFA_REMEMBER_COOKIE]: first.jar.get(MFA_REMEMBER_COOKIE)! };
      assert.ok(redirectParams(await login(browserWith(remembered)), CALLBACK).get('code'), 'remembered before the invalidation');

      const res = await t.management('POST', `/api/v2/users/${encodeURIComponent(userId)}/multifactor/actions/invalidate-remember-browser`);
      assert.equal(res.statusCode, 204, res.body);
      const asked = browserWith(remembered);
      const done = await login(asked);
      assert.equal(path(done), '/mfa', 'the remembered browser asks for the second factor again');

      // Passing it there remembers the browser anew, under the new epoch.
      await passMfa(asked, done, 1);
      const renewed = { [BROWSER_COOKIE]: asked.jar.get(BROWSER_COOKIE)!, [MFA_REMEMBER_COOKIE]: asked.jar.get(MFA_REMEMBER_COOKIE)! };
      assert.notEqual(renewed[MFA_REMEMBER_COOKIE], remembered[MFA_REMEMBER_COOKIE]);
      assert.ok(redirectParams(await login(browserWith(renewed)), CALLBACK).get('code'), 'remembered again');
      assert.equal(path(await login(browserWith(remembered))), '/mfa', 'the old cookie stays worthless');
    });
  });

  it('refused once the user\'s factors changed (authenticators reset and enrolled again)', async () => {
    const first = new Browser(t);
    await passMfa(first, await login(first), 1);
    const remembered = { [BROWSER_COOKIE]: first.jar.get(BROWSER_COOKIE)!, [MFA_REMEMBER_COOKIE]: first.jar.get(MFA_REMEMBER_COOKIE)! };
    assert.ok(redirectParams(await login(browserWith(remembered)), CALLBACK).get('code'));

    await mgmt('DELETE', `/api/v2/users/${encodeURIComponent(userId)}/authentication-methods`);
    await mgmt('POST', `/api/v2/users/${encodeURIComponent(userId)}/authentication-methods`, { type: 'totp', totp_secret: SECRET });
    assert.equal(path(await login(browserWith(remembered))), '/mfa');
  });
});
