/**
 * MFA in the hosted login in a real browser (Chromium through playwright-core)
 * against the built server over HTTPS: a user logs in with the password,
 * meets the enrolment page, reads the secret shown beside the QR code (as a
 * person typing it into an app would), enters a code computed from it by an
 * RFC 6238 library, saves the recovery code shown once, and reaches the
 * application with an ID token saying `amr: ["mfa"]`; a new browser then
 * logs in with the password and a code, with a wrong code refused first.
 * Screenshots of every step under test-output/screenshots/<scenario>/.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { decodeJwt } from 'jose';
import { Secret, TOTP } from 'otpauth';
import type { Browser, Page } from 'playwright-core';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { chromiumSkipReason, inScenario, launchChromium, managementApi, startLocalServer, type LocalServer, type ManagementApi, type Scenario } from './support/chromium.js';
import { cleanUp, httpsRequest } from './support/https.js';

const PASSWORD = 'Sunny-Meadow-42';
const CONNECTION = 'mfa-browser-users';

const skip = chromiumSkipReason();
let server: ServerProcess;
let ca: Buffer;
let callbackServer: LocalServer;
let callback: string;
let management: ManagementApi;
let browser: Browser | undefined;
let clientId: string;
let clientSecret: string;

before(async () => {
  if (skip) return;
  server = await startServerProcess();
  browser = await launchChromium();
  ca = fs.readFileSync(server.certFile);
  callbackServer = await startLocalServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Callback</title></head><body><h1>Signed in</h1><p>${req.url?.length ?? 0} bytes of query</p></body></html>`);
  });
  callback = `${callbackServer.origin}/callback`;
  management = await managementApi(server);
  const created = await management('POST', '/clients', {
    name: 'MFA Browser App',
    is_first_party: true,
    app_type: 'regular_web',
    token_endpoint_auth_method: 'client_secret_post',
    callbacks: [callback],
    grant_types: ['authorization_code'],
  });
  clientId = created.client_id as string;
  clientSecret = created.client_secret as string;
  await management('POST', '/connections', { name: CONNECTION, strategy: 'auth0', enabled_clients: [clientId] });
  for (const factor of ['otp', 'recovery-code']) await management('PUT', `/guardian/factors/${factor}`, { enabled: true });
  await management('PUT', '/guardian/policies', ['all-applications']);
});

after(async () => {
  await browser?.close();
  await callbackServer?.close();
  await cleanUp(server ? [server] : [], server ? [server.dataDir] : []);
});

function authorizeUrl(): { url: string; state: string } {
  const state = randomBytes(12).toString('base64url');
  const params = new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: callback, scope: 'openid email', state });
  return { url: `${server.baseUrl}/authorize?${params}`, state };
}

async function navigation(page: Page, action: () => Promise<unknown>) {
  const [response] = await Promise.all([page.waitForNavigation(), action()]);
  return response;
}

async function logIn(page: Page, email: string) {
  await page.getByLabel('Email address', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  return navigation(page, () => page.getByRole('button', { name: 'Log in' }).click());
}

/** On the callback with the state: the code exchanged, the ID token's claims returned. */
async function callbackClaims(scenario: Scenario, state: string, step: string): Promise<Record<string, unknown>> {
  const url = new URL(scenario.page.url());
  assert.equal(`${url.origin}${url.pathname}`, callback, `on the callback, not ${scenario.page.url()}`);
  assert.equal(url.searchParams.get('state'), state);
  await scenario.shot(step);
  const res = await httpsRequest(`${server.baseUrl}/oauth/token`, {
    ca,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ grant_type: 'authorization_code', client_id: clientId, client_secret: clientSecret, code: url.searchParams.get('code'), redirect_uri: callback }),
  });
  assert.equal(res.status, 200, res.text);
  return decodeJwt(res.json<{ id_token: string }>().id_token);
}

describe('MFA in the hosted login, in Chromium', { skip }, () => {
  const email = `mfa-${randomBytes(4).toString('hex')}@example.com`;
  let secret: string;

  test('enrols OTP from the page: QR image and secret, a code, the recovery code once, amr mfa', async () => {
    await management('POST', '/users', { connection: CONNECTION, email, password: PASSWORD });
    await inScenario(browser!, 'mfa enrol otp', async (scenario) => {
      const { page } = scenario;
      const { url, state } = authorizeUrl();
      await page.goto(url);
      await scenario.shot('login page');
      await logIn(page, email);
      assert.equal(new URL(page.url()).pathname, '/mfa');
      assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Set up two-step verification');
      const qr = page.getByRole('img', { name: 'QR code to scan with an authenticator app' });
      assert.ok(await qr.isVisible(), 'the QR code is shown');
      const box = await qr.boundingBox();
      assert.ok(box && box.width >= 150 && box.height >= 150, `the QR code is large enough to scan: ${JSON.stringify(box)}`);
      secret = ((await page.locator('#secret').textContent()) ?? '').trim();
      assert.match(secret, /^[A-Z2-7]{32}$/);
      await scenario.shot('enrolment page');

      const code = new TOTP({ secret: Secret.fromBase32(secret) }).generate();
      await page.getByLabel('Code from the app', { exact: true }).fill(code);
      const shown = await navigation(page, () => page.getByRole('button', { name: 'Verify' }).click());
      assert.equal(shown?.status(), 200);
      const recovery = ((await page.locator('#recovery-code').textContent()) ?? '').trim();
      assert.match(recovery, /^[A-Z0-9]{24}$/);
      await scenario.shot('recovery code');
      await navigation(page, () => page.getByRole('button', { name: 'I have saved it, continue' }).click());
      const claims = await callbackClaims(scenario, state, 'enrolled: callback');
      assert.equal(claims.email, email);
      assert.deepEqual(claims.amr, ['mfa']);
    });
  });

  test('a new browser logs in with the password and a code; a wrong code is refused first', async () => {
    await inScenario(browser!, 'mfa login with otp', async (scenario) => {
      const { page } = scenario;
      const { url, state } = authorizeUrl();
      await page.goto(url);
      await logIn(page, email);
      assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Verify your identity');
      await scenario.shot('challenge page');
      // Thirty seconds ahead: the next step's code, accepted for drift and never used before.
      const totp = new TOTP({ secret: Secret.fromBase32(secret) });
      const right = totp.generate({ timestamp: Date.now() + 30_000 });
      const wrong = String((Number(right) + 1) % 1_000_000).padStart(6, '0');
      await page.getByLabel('Code', { exact: true }).fill(wrong);
      const refused = await navigation(page, () => page.getByRole('button', { name: 'Continue' }).click());
      assert.equal(refused?.status(), 400);
      assert.equal(await page.getByRole('alert').textContent(), 'That code is not right. Try again.');
      assert.equal(await page.getByLabel('Code', { exact: true }).getAttribute('aria-invalid'), 'true');
      await scenario.shot('wrong code');
      await page.getByLabel('Code', { exact: true }).fill(right);
      await navigation(page, () => page.getByRole('button', { name: 'Continue' }).click());
      const claims = await callbackClaims(scenario, state, 'logged in: callback');
      assert.deepEqual(claims.amr, ['mfa']);
    });
  });
});
