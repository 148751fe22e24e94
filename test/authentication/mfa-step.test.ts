/**
 * The MFA interaction step of the hosted login (src/authentication/
 * interaction/steps/mfa.ts) through app.inject with a scripted browser: OTP
 * enrolment (the QR image and the secret on the page), the recovery code
 * shown once, `amr: ["mfa"]` in the ID token, the challenge on the next
 * login, recovery codes and email codes on the page, `acr_values` forcing
 * MFA, `prompt=none`, and refusals (wrong codes, a reused code).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { Secret, TOTP } from 'otpauth';
import type { LightMyRequestResponse } from 'fastify';
import { MULTI_FACTOR_ACR } from '../../src/authentication/interaction/steps/mfa.js';
import { createTestApp, tokenRequest, type TestApp } from '../helpers/app.js';
import { authorizeUrl, Browser, hidden, pkce, redirectParams } from '../helpers/browser.js';
import { insertClient, type TestClient } from '../helpers/fixtures.js';

const REALM = 'Username-Password-Authentication';
const PASSWORD = 'Correct horse battery staple 1';
const CALLBACK = 'https://app.example.com/callback';

describe('the MFA step of the hosted login', () => {
  let t: TestApp;
  let app: TestClient;

  const mgmt = async (method: string, url: string, body?: unknown) => {
    const res = await t.management(method, url, body === undefined ? {} : { body });
    assert.ok(res.statusCode < 300, `${method} ${url}: ${res.statusCode} ${res.body}`);
    return res;
  };
  const newUser = async (email: string) => ((await mgmt('POST', '/api/v2/users', { connection: REALM, email, password: PASSWORD })).json() as { user_id: string }).user_id;
  const code = (secret: string, at = t.ctx.now()) => new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: at });
  const location = (res: LightMyRequestResponse) => new URL(res.headers.location as string, 'https://x');

  /** Logs in with the password; returns the browser, the PKCE verifier and the MFA page the login led to. */
  async function loginToMfa(email: string, params: Record<string, string> = {}, browser = new Browser(t)) {
    const { verifier, challenge } = pkce();
    const done = await browser.login(authorizeUrl(app.client_id, CALLBACK, { scope: 'openid email', code_challenge: challenge, ...params }), email, PASSWORD);
    assert.equal(done.statusCode, 302, done.body);
    assert.equal(location(done).pathname, '/mfa', 'MFA follows the login');
    const page = await browser.get(done.headers.location as string);
    assert.equal(page.statusCode, 200, page.body);
    return { browser, verifier, page, state: location(done).searchParams.get('state')! };
  }

  /** The code of the callback exchanged for tokens; returns the ID token's claims. */
  async function exchange(res: LightMyRequestResponse, verifier: string) {
    const authCode = redirectParams(res, CALLBACK).get('code')!;
    const tokens = await tokenRequest(t.app, { grant_type: 'authorization_code', client_id: app.client_id, client_secret: app.client_secret, code: authCode, redirect_uri: CALLBACK, code_verifier: verifier });
    assert.equal(tokens.statusCode, 200, tokens.body);
    return decodeJwt((tokens.json() as { id_token: string }).id_token);
  }

  const secrets = new Map<string, string>();
  const recoveryCodes = new Map<string, string>();

  before(async () => {
    t = await createTestApp();
    app = await insertClient(t, { grant_types: ['authorization_code'], config: { callbacks: [CALLBACK] } });
    await mgmt('POST', '/api/v2/connections', { name: REALM, strategy: 'auth0', enabled_clients: [app.client_id] });
    for (const factor of ['otp', 'email', 'recovery-code']) await mgmt('PUT', `/api/v2/guardian/factors/${factor}`, { enabled: true });
    await mgmt('PUT', '/api/v2/guardian/policies', ['all-applications']);
  });
  after(() => t.close());

  it('enrols OTP from the page (QR image and secret), shows the recovery code once, and the ID token says amr mfa', async () => {
    await newUser('hosted1@example.com');
    const { browser, verifier, page, state } = await loginToMfa('hosted1@example.com');
    assert.match(page.body, /<svg[^>]*viewBox/, 'the QR code is an inline SVG image');
    assert.match(page.body, /role="img" aria-label="QR code/);
    const secret = /<code id="secret">([A-Z2-7]{32})<\/code>/.exec(page.body)![1]!;
    assert.ok(!page.body.includes('<script'), 'no scripts');

    const wrong = await browser.post('/mfa', { state, csrf_token: hidden(page.body, 'csrf_token'), method: 'otp', code: String((Number(code(secret)) + 1) % 1_000_000).padStart(6, '0') });
    assert.equal(wrong.statusCode, 400);
    assert.match(wrong.body, /That code is not right/);
    const current = /<code id="secret">([A-Z2-7]{32})<\/code>/.exec(wrong.body)![1]!;

    const right = await browser.post('/mfa', { state, csrf_token: hidden(wrong.body, 'csrf_token'), method: 'otp', code: code(current) });
    assert.equal(right.statusCode, 200, right.body);
    const recovery = /<code id="recovery-code">([A-Z0-9]{24})<\/code>/.exec(right.body)![1]!;
    secrets.set('hosted1@example.com', current);
    recoveryCodes.set('hosted1@example.com', recovery);

    const done = await browser.get(`/mfa?state=${encodeURIComponent(state)}`);
    const claims = await exchange(done, verifier);
    assert.deepEqual(claims.amr, ['mfa']);

    const again = await browser.get(authorizeUrl(app.client_id, CALLBACK));
    assert.ok(redirectParams(again, CALLBACK).get('code'), 'the session has its second factor: no MFA again');
  });

  it('the next login is challenged for a code; a reused code is refused; the right one logs in', async () => {
    t.ctx.clock.advance(30_000);
    const secret = secrets.get('hosted1@example.com')!;
    const { browser, verifier, page, state } = await loginToMfa('hosted1@example.com');
    assert.match(page.body, /code from your authenticator app/);
    assert.match(page.body, /Use a recovery code/);
    const otp = code(secret);
    const ok = await browser.post('/mfa', { state, csrf_token: hidden(page.body, 'csrf_token'), method: 'otp', code: otp });
    assert.deepEqual((await exchange(ok, verifier)).amr, ['mfa']);

    const second = await loginToMfa('hosted1@example.com');
    const reused = await second.browser.post('/mfa', { state: second.state, csrf_token: hidden(second.page.body, 'csrf_token'), method: 'otp', code: otp });
    assert.equal(reused.statusCode, 400, 'a code works once');
  });

  it('a recovery code logs in once and the next one is shown', async () => {
    const { browser, verifier, state } = await loginToMfa('hosted1@example.com');
    const form = await browser.get(`/mfa?state=${encodeURIComponent(state)}&method=recovery`);
    assert.match(form.body, /name="recovery_code"/);
    const used = await browser.post('/mfa', { state, csrf_token: hidden(form.body, 'csrf_token'), method: 'recovery', recovery_code: recoveryCodes.get('hosted1@example.com')! });
    assert.equal(used.statusCode, 200, used.body);
    const next = /<code id="recovery-code">([A-Z0-9]{24})<\/code>/.exec(used.body)![1]!;
    assert.notEqual(next, recoveryCodes.get('hosted1@example.com'));
    assert.deepEqual((await exchange(await browser.get(`/mfa?state=${encodeURIComponent(state)}`), verifier)).amr, ['mfa']);

    const other = await loginToMfa('hosted1@example.com');
    const form2 = await other.browser.get(`/mfa?state=${encodeURIComponent(other.state)}&method=recovery`);
    const twice = await other.browser.post('/mfa', { state: other.state, csrf_token: hidden(form2.body, 'csrf_token'), method: 'recovery', recovery_code: recoveryCodes.get('hosted1@example.com')! });
    assert.equal(twice.statusCode, 400, 'a recovery code works once');
  });

  it('an email factor: the page sends a code, the code logs in; a forged CSRF token is refused', async () => {
    const userId = await newUser('hosted2@example.com');
    await mgmt('POST', `/api/v2/users/${encodeURIComponent(userId)}/authentication-methods`, { type: 'email', email: 'hosted2@example.com' });
    const { browser, verifier, page, state } = await loginToMfa('hosted2@example.com');
    assert.match(page.body, /Email me a code/);
    const forged = await browser.post('/mfa/send', { state, csrf_token: 'forged', method: 'email' });
    assert.equal(forged.statusCode, 403);
    const sent = await browser.post('/mfa/send', { state, csrf_token: hidden(page.body, 'csrf_token'), method: 'email' });
    assert.equal(sent.statusCode, 200, sent.body);
    const mail = t.ctx.mailer.outbox!.messages().at(-1)!;
    assert.equal(mail.to, 'hosted2@example.com');
    const binding = /code is (\d{6})/.exec(mail.text)![1]!;
    const done = await browser.post('/mfa', { state, csrf_token: hidden(sent.body, 'csrf_token'), method: 'email', oob_code: hidden(sent.body, 'oob_code'), code: binding });
    assert.deepEqual((await exchange(done, verifier)).amr, ['mfa']);
  });

  it('prompt=none with a session without a second factor: interaction_required', async () => {
    await mgmt('PUT', '/api/v2/guardian/policies', []);
    await newUser('hosted3@example.com');
    const browser = new Browser(t);
    const plain = await browser.login(authorizeUrl(app.client_id, CALLBACK), 'hosted3@example.com', PASSWORD);
    assert.ok(redirectParams(plain, CALLBACK).get('code'), 'no policy: no MFA');
    const forced = await browser.get(authorizeUrl(app.client_id, CALLBACK, { acr_values: MULTI_FACTOR_ACR, prompt: 'none' }));
    const params = redirectParams(forced, CALLBACK);
    assert.equal(params.get('error'), 'interaction_required');
    assert.equal(params.get('error_description'), 'Multifactor authentication required');
  });

  it('acr_values multi-factor forces MFA without a policy', async () => {
    await newUser('hosted4@example.com');
    const { page } = await loginToMfa('hosted4@example.com', { acr_values: MULTI_FACTOR_ACR });
    assert.match(page.body, /Set up two-step verification/);
    await mgmt('PUT', '/api/v2/guardian/policies', ['all-applications']);
  });
});
