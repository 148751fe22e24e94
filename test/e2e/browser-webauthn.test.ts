/**
 * WebAuthn security keys as a second factor in a real browser: Chromium
 * (playwright-core) with a CDP virtual authenticator (`WebAuthn.enable`,
 * `WebAuthn.addVirtualAuthenticator`: CTAP2 over USB, a security key
 * without user verification), against the built server over HTTPS, with
 * openid-client as the application (authorization code flow with PKCE).
 *
 * A user logs in with the password, meets the enrolment page, chooses "Use
 * a security key", the browser creates the credential, the recovery code is
 * shown once and the application gets an ID token with `amr: ["mfa"]`. A
 * new browser holding the same key (the credential copied into its virtual
 * authenticator) logs in with the password and the key. The Management API
 * lists the key among the user's authentication methods, with its credential
 * id, and deletes it; a browser whose key is not enrolled is refused.
 * Screenshots under test-output/screenshots/<scenario>/.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, CDPSession, Page } from 'playwright-core';
import { ROOT, startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { chromiumSkipReason, inScenario, launchChromium, managementApi, type ManagementApi, type Scenario } from './support/chromium.js';
import { atCallback, authorization, codeFlowApp, navigation, submitLogin, type CodeFlowApp, type Pending } from './support/code-flow-app.js';
import { cleanUp, runNode } from './support/https.js';

const PASSWORD = 'Amber-Harbour-77';
const CONNECTION = 'webauthn-browser-users';

const skip = chromiumSkipReason();
let server: ServerProcess;
let app: CodeFlowApp;
let management: ManagementApi;
let browser: Browser | undefined;

before(async () => {
  if (skip) return;
  server = await startServerProcess();
  browser = await launchChromium();
  management = await managementApi(server);
  app = await codeFlowApp(server, management, 'WebAuthn Browser App');
  await management('POST', '/connections', { name: CONNECTION, strategy: 'auth0', enabled_clients: [app.clientId] });
  for (const factor of ['otp', 'webauthn-roaming', 'recovery-code']) await management('PUT', `/guardian/factors/${factor}`, { enabled: true });
  await management('PUT', '/guardian/policies', ['all-applications']);
});

after(async () => {
  await browser?.close();
  await app?.close();
  await cleanUp(server ? [server] : [], server ? [server.dataDir] : []);
});

const logIn = (page: Page, email: string) => submitLogin(page, email, PASSWORD);

/** A CTAP2 USB security key in this page's browser context, which touches itself when asked (user presence, no user verification). */
async function securityKey(scenario: Scenario): Promise<{ cdp: CDPSession; authenticatorId: string }> {
  const cdp = await scenario.context.newCDPSession(scenario.page);
  await cdp.send('WebAuthn.enable', { enableUI: false });
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'usb', hasResidentKey: false, hasUserVerification: false, automaticPresenceSimulation: true },
  });
  return { cdp, authenticatorId };
}

/** The application's side of the callback: openid-client exchanges the code and checks the ID token. */
async function callbackClaims(scenario: Scenario, pending: Pending, step: string) {
  return (await atCallback(scenario, app, pending, step)).claims()!;
}

type VirtualCredential = { credentialId: string; isResidentCredential: boolean; privateKey: string; signCount: number; rpId?: string; userHandle?: string };

describe('WebAuthn security keys as a second factor, in Chromium', { skip }, () => {
  const email = `key-${randomBytes(4).toString('hex')}@example.com`;
  let userId: string;
  let credential: VirtualCredential;

  test('enrols a security key from the MFA page; the recovery code once; amr mfa', async () => {
    userId = (await management('POST', '/users', { connection: CONNECTION, email, password: PASSWORD })).user_id as string;
    await inScenario(browser!, 'webauthn enrol security key', async (scenario) => {
      const { page } = scenario;
      const key = await securityKey(scenario);
      const pending = await authorization(app);
      await page.goto(pending.url);
      await logIn(page, email);
      assert.equal(new URL(page.url()).pathname, '/mfa');
      assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Set up two-step verification');
      await scenario.shot('enrolment page with the security key offered');
      await navigation(page, () => page.getByRole('link', { name: 'Use a security key' }).click());
      await scenario.shot('security key enrolment page');
      const shown = await navigation(page, () => page.getByRole('button', { name: 'Use a security key' }).click());
      assert.equal(shown?.status(), 200);
      assert.match(((await page.locator('#recovery-code').textContent()) ?? '').trim(), /^[A-Z0-9]{24}$/);
      await navigation(page, () => page.getByRole('button', { name: 'I have saved it, continue' }).click());
      const claims = await callbackClaims(scenario, pending, 'enrolled: callback');
      assert.equal(claims.email, email);
      assert.deepEqual(claims.amr, ['mfa']);

      const { credentials } = (await key.cdp.send('WebAuthn.getCredentials', { authenticatorId: key.authenticatorId })) as { credentials: VirtualCredential[] };
      assert.equal(credentials.length, 1, 'the key holds one credential');
      credential = credentials[0]!;
      assert.equal(credential.rpId, 'localhost', 'the relying party is the tenant’s host');
      assert.ok(credential.signCount >= 1, 'the key counted its signature');
    });
    const methods = (await management('GET', `/users/${encodeURIComponent(userId)}/authentication-methods`)) as unknown as { type: string; key_id?: string; confirmed: boolean }[];
    const keys = methods.filter((m) => m.type === 'webauthn-roaming');
    assert.equal(keys.length, 1, JSON.stringify(methods));
    assert.equal(keys[0]!.key_id, Buffer.from(credential.credentialId, 'base64').toString('base64url'));
    assert.equal(keys[0]!.confirmed, true);
  });

  test('a new browser with the same key logs in with the password and the key', async () => {
    await inScenario(browser!, 'webauthn login with security key', async (scenario) => {
      const { page } = scenario;
      const key = await securityKey(scenario);
      await key.cdp.send('WebAuthn.addCredential', { authenticatorId: key.authenticatorId, credential });
      const pending = await authorization(app);
      await page.goto(pending.url);
      await logIn(page, email);
      assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Verify your identity');
      await scenario.shot('challenge page');
      await navigation(page, () => page.getByRole('button', { name: 'Use security key or device' }).click());
      const claims = await callbackClaims(scenario, pending, 'logged in: callback');
      assert.deepEqual(claims.amr, ['mfa']);
      const { credentials } = (await key.cdp.send('WebAuthn.getCredentials', { authenticatorId: key.authenticatorId })) as { credentials: VirtualCredential[] };
      assert.ok(credentials[0]!.signCount > credential.signCount, 'the key counted another signature');
    });
  });

  test('a browser whose key is not enrolled is refused and stays on the MFA page', async () => {
    await inScenario(browser!, 'webauthn refused other key', async (scenario) => {
      const { page } = scenario;
      await securityKey(scenario);
      const pending = await authorization(app);
      await page.goto(pending.url);
      await logIn(page, email);
      await page.getByRole('button', { name: 'Use security key or device' }).click();
      // The browser finds no credential of the allow list on this key: the ceremony fails in the page and nothing is sent.
      await page.getByRole('status').filter({ hasText: 'The browser did not complete the step' }).waitFor();
      assert.equal(new URL(page.url()).pathname, '/mfa');
      await scenario.shot('refused');
    });
  });

  test('the auth0 SDK lists the key among the authentication methods and deletes it; the next login must enrol again', async () => {
    const admin = server.admin();
    const input = { domain: server.domain, clientId: admin.client_id, clientSecret: admin.client_secret, userId, type: 'webauthn-roaming' };
    const run = await runNode(['--import', 'tsx', path.join(ROOT, 'test/e2e/clients/auth0-sdk-authentication-methods.ts'), JSON.stringify(input)], {
      env: { ...process.env, NODE_EXTRA_CA_CERTS: server.certFile },
      timeoutMs: 90_000,
    });
    assert.equal(run.code, 0, `SDK run failed:\n${run.stderr}`);
    const out = JSON.parse(run.stdout) as { before: { type: string; key_id?: string }[]; after: { type: string }[] };
    const keys = out.before.filter((m) => m.type === 'webauthn-roaming');
    assert.deepEqual(keys.map((m) => m.key_id), [Buffer.from(credential.credentialId, 'base64').toString('base64url')]);
    assert.deepEqual(out.after.filter((m) => m.type === 'webauthn-roaming'), []);

    await inScenario(browser!, 'webauthn enrol again after deletion', async (scenario) => {
      const { page } = scenario;
      await page.goto((await authorization(app)).url);
      await logIn(page, email);
      assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Set up two-step verification');
    });
  });
});
