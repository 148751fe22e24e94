/**
 * WebAuthn as a second factor in the hosted login (src/domain/mfa/webauthn.ts,
 * the MFA step), through app.inject with a software authenticator
 * (../helpers/webauthn-authenticator.ts): a security key enrolled and used,
 * listed by the Management API; and every refusal, each leaving the browser
 * on the MFA page with no code for the application: another origin, another
 * RP ID, a replayed challenge, a challenge of another login, a credential
 * of another user, a counter that went backwards, user verification missing
 * where the factor requires it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, DOMAIN, tokenRequest, type TestApp } from '../helpers/app.js';
import { authorizeUrl, Browser, hidden, pkce, redirectParams } from '../helpers/browser.js';
import { insertClient, type TestClient } from '../helpers/fixtures.js';
import { SoftwareAuthenticator } from '../helpers/webauthn-authenticator.js';

const REALM = 'Username-Password-Authentication';
const PASSWORD = 'Correct horse battery staple 1';
const CALLBACK = 'https://app.example.com/callback';
const PASSWORD_REALM = 'http://auth0.com/oauth/grant-type/password-realm';

/** The ceremony options a WebAuthn form carries in data-webauthn (HTML-escaped JSON). */
function webauthnOptions(body: string): { challenge: string; rp?: { id: string }; rpId?: string; allowCredentials?: { id: string }[]; authenticatorSelection?: { userVerification: string } } {
  const match = /data-webauthn="([^"]*)"/.exec(body);
  assert.ok(match, 'a WebAuthn form in the page');
  return JSON.parse(match[1]!.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&'));
}

describe('WebAuthn as a second factor in the hosted login', () => {
  let t: TestApp;
  let app: TestClient;
  let api: TestClient;

  const mgmt = async (method: string, url: string, body?: unknown) => {
    const res = await t.management(method, url, body === undefined ? {} : { body });
    assert.ok(res.statusCode < 300, `${method} ${url}: ${res.statusCode} ${res.body}`);
    return res;
  };
  const newUser = async (email: string) => ((await mgmt('POST', '/api/v2/users', { connection: REALM, email, password: PASSWORD })).json() as { user_id: string }).user_id;
  const location = (res: LightMyRequestResponse) => new URL(res.headers.location as string, 'https://x');

  async function loginToMfa(email: string, path = '') {
    const browser = new Browser(t);
    const { verifier, challenge } = pkce();
    const done = await browser.login(authorizeUrl(app.client_id, CALLBACK, { scope: 'openid email', code_challenge: challenge }), email, PASSWORD);
    assert.equal(location(done).pathname, '/mfa', 'MFA follows the login');
    const page = await browser.get(`${done.headers.location as string}${path}`);
    assert.equal(page.statusCode, 200, page.body);
    return { browser, verifier, page, state: location(done).searchParams.get('state')! };
  }

  async function exchange(res: LightMyRequestResponse, verifier: string) {
    const code = redirectParams(res, CALLBACK).get('code')!;
    const tokens = await tokenRequest(t.app, { grant_type: 'authorization_code', client_id: app.client_id, client_secret: app.client_secret, code, redirect_uri: CALLBACK, code_verifier: verifier });
    assert.equal(tokens.statusCode, 200, tokens.body);
    return decodeJwt((tokens.json() as { id_token: string }).id_token);
  }

  /** Posts the credential to the page's form. */
  function answer(login: { browser: Browser; page: LightMyRequestResponse; state: string }, method: string, credential: unknown) {
    return login.browser.post('/mfa', { state: login.state, csrf_token: hidden(login.page.body, 'csrf_token'), method, credential: JSON.stringify(credential) });
  }

  /** A refusal: the MFA page again with an error, no redirect to the application. */
  function refused(res: LightMyRequestResponse, why: string) {
    assert.equal(res.statusCode, 400, `${why}: ${res.statusCode} ${res.body.slice(0, 300)}`);
    assert.equal(res.headers.location, undefined, `${why}: no redirect`);
    assert.match(res.body, /role="alert"[^>]*>[^<]*(That security key or device was not accepted|Too many wrong codes)/, `${why}: the page says so`);
  }

  /** Enrols a key for a new user; returns the key. */
  async function enrolled(email: string, factor = 'webauthn-roaming', userVerified = true) {
    await newUser(email);
    const login = await loginToMfa(email, `&method=${factor}`);
    const options = webauthnOptions(login.page.body);
    const key = new SoftwareAuthenticator();
    const done = await answer(login, factor, key.register({ challenge: options.challenge, rpId: options.rp!.id, userVerified }));
    return { key, done, login };
  }

  before(async () => {
    t = await createTestApp();
    app = await insertClient(t, { grant_types: ['authorization_code'], config: { callbacks: [CALLBACK] } });
    api = await insertClient(t, { grant_types: ['password', PASSWORD_REALM] });
    await mgmt('POST', '/api/v2/connections', { name: REALM, strategy: 'auth0', enabled_clients: [app.client_id, api.client_id] });
    for (const factor of ['webauthn-roaming', 'webauthn-platform']) await mgmt('PUT', `/api/v2/guardian/factors/${factor}`, { enabled: true });
    await mgmt('PUT', '/api/v2/guardian/policies', ['all-applications']);
  });
  after(() => t.close());

  it('enrols a security key for the tenant as relying party, lists it, and logs in with it: amr mfa', async () => {
    const { key, done, login } = await enrolled('key1@example.com');
    assert.equal(done.statusCode, 302, done.body);
    assert.deepEqual((await exchange(done, login.verifier)).amr, ['mfa']);
    const users = (await mgmt('GET', `/api/v2/users-by-email?email=key1%40example.com`)).json() as { user_id: string }[];
    const methods = (await mgmt('GET', `/api/v2/users/${encodeURIComponent(users[0]!.user_id)}/authentication-methods`)).json() as { type: string; key_id?: string; id: string }[];
    assert.deepEqual(
      methods.map((m) => [m.type, m.key_id]),
      [['webauthn-roaming', key.id]],
    );

    const next = await loginToMfa('key1@example.com');
    const options = webauthnOptions(next.page.body);
    assert.equal(options.rpId, DOMAIN);
    assert.deepEqual(options.allowCredentials?.map((c) => c.id), [key.id]);
    const ok = await answer(next, 'webauthn', key.assert({ challenge: options.challenge, rpId: DOMAIN }));
    assert.equal(ok.statusCode, 302, ok.body);
    assert.deepEqual((await exchange(ok, next.verifier)).amr, ['mfa']);
  });

  it('refuses an assertion from another origin, or for another RP ID', async () => {
    const { key } = await enrolled('key2@example.com');
    const login = await loginToMfa('key2@example.com');
    const { challenge } = webauthnOptions(login.page.body);
    refused(await answer(login, 'webauthn', key.assert({ challenge, rpId: DOMAIN, origin: 'https://evil.example' })), 'another origin');
    const again = await loginToMfa('key2@example.com');
    refused(await answer(again, 'webauthn', key.assert({ challenge: webauthnOptions(again.page.body).challenge, rpId: 'evil.example', origin: `https://${DOMAIN}` })), 'another RP ID');
  });

  it('refuses a replayed answer, and the challenge of another login', async () => {
    const { key } = await enrolled('key3@example.com');
    const first = await loginToMfa('key3@example.com');
    const signed = key.assert({ challenge: webauthnOptions(first.page.body).challenge, rpId: DOMAIN });
    assert.equal((await answer(first, 'webauthn', signed)).statusCode, 302);
    const second = await loginToMfa('key3@example.com');
    refused(await answer(second, 'webauthn', signed), 'the same answer replayed');

    // A challenge issued to another browser's login, answered in this one.
    const other = await loginToMfa('key3@example.com');
    const third = await loginToMfa('key3@example.com');
    refused(await answer(third, 'webauthn', key.assert({ challenge: webauthnOptions(other.page.body).challenge, rpId: DOMAIN })), 'the challenge of another login');
  });

  it('refuses a counter that went backwards, and a credential of another user', async () => {
    const { key } = await enrolled('key4@example.com');
    const ok = await loginToMfa('key4@example.com');
    assert.equal((await answer(ok, 'webauthn', key.assert({ challenge: webauthnOptions(ok.page.body).challenge, rpId: DOMAIN }, { signCount: 10 }))).statusCode, 302);
    const cloned = await loginToMfa('key4@example.com');
    refused(await answer(cloned, 'webauthn', key.assert({ challenge: webauthnOptions(cloned.page.body).challenge, rpId: DOMAIN }, { signCount: 5 })), 'a counter that went backwards');

    const { key: otherKey } = await enrolled('key5@example.com');
    const login = await loginToMfa('key4@example.com');
    refused(await answer(login, 'webauthn', otherKey.assert({ challenge: webauthnOptions(login.page.body).challenge, rpId: DOMAIN })), 'a credential of another user');
  });

  it('device biometrics require user verification: a registration or an assertion without it is refused', async () => {
    const { done } = await enrolled('key6@example.com', 'webauthn-platform', false);
    refused(done, 'a registration without user verification');

    const { key, done: enrolledDone } = await enrolled('key7@example.com', 'webauthn-platform', true);
    assert.equal(enrolledDone.statusCode, 302, enrolledDone.body);
    const login = await loginToMfa('key7@example.com');
    const options = webauthnOptions(login.page.body);
    refused(await answer(login, 'webauthn', key.assert({ challenge: options.challenge, rpId: DOMAIN, userVerified: false })), 'an assertion without user verification');
  });

  it('DELETE /api/v2/users/{id}/authenticators removes every authenticator: the next login enrols again', async () => {
    const { done } = await enrolled('key9@example.com');
    assert.equal(done.statusCode, 302, done.body);
    const userId = ((await mgmt('GET', '/api/v2/users-by-email?email=key9%40example.com')).json() as { user_id: string }[])[0]!.user_id;
    const removed = await t.management('DELETE', `/api/v2/users/${encodeURIComponent(userId)}/authenticators`);
    assert.equal(removed.statusCode, 204, removed.body);
    assert.deepEqual((await mgmt('GET', `/api/v2/users/${encodeURIComponent(userId)}/authentication-methods`)).json(), []);
    const next = await loginToMfa('key9@example.com');
    assert.equal(webauthnOptions(next.page.body).rp?.id, DOMAIN, 'the enrolment page again');
  });

  it('the /mfa API and mfa_requirements name the key; the API cannot challenge it', async () => {
    const { key } = await enrolled('key10@example.com');
    const login = await tokenRequest(t.app, { grant_type: PASSWORD_REALM, client_id: api.client_id, client_secret: api.client_secret, username: 'key10@example.com', password: PASSWORD, realm: REALM });
    assert.equal(login.statusCode, 403, login.body);
    const { mfa_token, mfa_requirements } = login.json() as { mfa_token: string; mfa_requirements: unknown };
    assert.deepEqual(mfa_requirements, { challenge: [{ type: 'webauthn-roaming' }] });
    const listed = await t.app.inject({ method: 'GET', url: '/mfa/authenticators', headers: { host: DOMAIN, authorization: `Bearer ${mfa_token}` } });
    assert.equal(listed.statusCode, 200, listed.body);
    const [only] = listed.json() as { id: string; authenticator_type: string; active: boolean }[];
    assert.equal(only!.authenticator_type, 'webauthn-roaming');
    assert.equal(only!.active, true);
    assert.match(only!.id, /^webauthn-roaming\|dev_/);
    assert.ok(key.id.length > 0);
    const challenge = await t.app.inject({
      method: 'POST',
      url: '/mfa/challenge',
      headers: { host: DOMAIN, 'content-type': 'application/json' },
      payload: JSON.stringify({ client_id: api.client_id, client_secret: api.client_secret, mfa_token }),
    });
    assert.equal(challenge.statusCode, 400, challenge.body);
    assert.equal((challenge.json() as { error: string }).error, 'unsupported_challenge_type');
  });

  it('a credential field that is not a credential is a wrong answer, not an error', async () => {
    await enrolled('key8@example.com');
    const login = await loginToMfa('key8@example.com');
    const res = await login.browser.post('/mfa', { state: login.state, csrf_token: hidden(login.page.body, 'csrf_token'), method: 'webauthn', credential: '{not json' });
    refused(res, 'not JSON');
  });
});
