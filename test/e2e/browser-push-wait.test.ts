/**
 * The MFA push waiting page in a real browser (Debian's Chromium through
 * playwright-core) against the built server over HTTPS, under the CSP the
 * server sends, with the APNs stand-in delivering the notification and a test
 * device (test/helpers/push-device.ts) answering it with its signed JWT:
 *
 * - script on: after "Send a notification" the page asks /mfa/push-status
 *   (pending) and, once the device approves, posts its form by itself and
 *   lands on the application's callback with a code; no CSP violation, no
 *   page error, axe-core reports nothing on the waiting page in light and dark
 *   mode, and the page never reloads itself;
 * - JavaScript disabled: the page asks nothing; "I have approved it" before
 *   the approval shows the waiting page again, after it reaches the callback.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { enrolPushDevice, pushAnswer, signDeviceJwt, type DevicePost, type PushDevice } from '../helpers/push-device.js';
import { startApnsStandIn, type ApnsStandIn } from '../helpers/push-stand-ins.js';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { axeViolations } from './support/axe.js';
import { chromiumSkipReason, inScenario, launchChromium, managementApi, startLocalServer, type LocalServer, type ManagementApi, type Scenario } from './support/chromium.js';
import { cleanUp, httpsRequest, waitFor } from './support/https.js';

const PASSWORD = 'Patient-Heron-64';
const CONNECTION = 'push-wait-users';
const PASSWORD_REALM = 'http://auth0.com/oauth/grant-type/password-realm';
const MFA_OOB = 'http://auth0.com/oauth/grant-type/mfa-oob';
const BUNDLE = 'com.example.guardian';
const APNS_SUBJECT = `Apple Push Services: ${BUNDLE}`;

/** Reports every CSP violation of the page to the console, where the scenario's log and the test see it. */
const REPORT_VIOLATIONS = `document.addEventListener('securitypolicyviolation', (e) => console.error('csp-violation ' + e.violatedDirective + ' ' + e.blockedURI));`;

const skip = chromiumSkipReason();

describe('the MFA push waiting page in Chromium', { skip }, () => {
  let browser: Browser;
  let server: ServerProcess;
  let apns: ApnsStandIn;
  let ca: Buffer;
  let callbackServer: LocalServer;
  let management: ManagementApi;
  let clientId: string;
  let clientSecret: string;
  let device: PushDevice;
  const email = `push-wait-${randomBytes(4).toString('hex')}@example.com`;

  const call = (method: string, path: string, body?: unknown, authorization?: string) =>
    httpsRequest(`${server.baseUrl}${path}`, {
      ca,
      method,
      headers: { ...(body !== undefined && { 'content-type': 'application/json' }), ...(authorization !== undefined && { authorization }) },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });

  before(async () => {
    apns = await startApnsStandIn(APNS_SUBJECT);
    server = await startServerProcess({ env: { GATEHOUSE_APNS_URL: apns.url, GATEHOUSE_PUSH_CA_FILE: apns.caFile } });
    ca = fs.readFileSync(server.certFile);
    browser = await launchChromium();
    callbackServer = await startLocalServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!DOCTYPE html><html lang="en"><head><title>Callback</title></head><body><main><h1>Signed in</h1></main></body></html>');
    });
    management = await managementApi(server);
    const created = await management('POST', '/clients', {
      name: 'Push Wait App',
      app_type: 'regular_web',
      is_first_party: true,
      callbacks: [`${callbackServer.origin}/callback`],
      grant_types: ['authorization_code', PASSWORD_REALM, MFA_OOB],
      token_endpoint_auth_method: 'client_secret_post',
    });
    clientId = created.client_id as string;
    clientSecret = created.client_secret as string;
    await management('POST', '/connections', { name: CONNECTION, strategy: 'auth0', enabled_clients: [clientId] });
    await management('POST', '/users', { connection: CONNECTION, email, password: PASSWORD });
    await management('PUT', '/guardian/factors/push-notification', { enabled: true });
    await management('PUT', '/guardian/factors/push-notification/providers/apns', { sandbox: false, bundle_id: BUNDLE, p12: await apns.providerP12(APNS_SUBJECT) });
    await management('PUT', '/guardian/factors/push-notification/selected-provider', { provider: 'direct' });
    await management('PUT', '/guardian/policies', ['all-applications']);

    // The user enrols a device through /mfa/associate's QR code transaction.
    const login = await call('POST', '/oauth/token', { client_id: clientId, client_secret: clientSecret, grant_type: PASSWORD_REALM, username: email, password: PASSWORD, realm: CONNECTION, scope: 'openid' });
    assert.equal(login.status, 403, login.text);
    const mfaToken = login.json<{ mfa_token: string }>().mfa_token;
    const associated = await call('POST', '/mfa/associate', { authenticator_types: ['oob'], oob_channels: ['auth0'] }, `Bearer ${mfaToken}`);
    assert.equal(associated.status, 200, associated.text);
    const post: DevicePost = (path, body, headers) => call('POST', path, body, headers.authorization);
    device = await enrolPushDevice(associated.json<{ barcode_uri: string }>().barcode_uri, `${server.baseUrl}/guardian`, post);
  });

  after(async () => {
    await browser?.close();
    await callbackServer?.close();
    await cleanUp(server ? [server] : [], server ? [server.dataDir] : []);
    await apns?.close();
  });

  const authorizeUrl = () =>
    `${server.baseUrl}/authorize?${new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: `${callbackServer.origin}/callback`, scope: 'openid', state: randomBytes(8).toString('hex') })}`;

  /** Logs in with the password and sends the notification: the waiting page, and the transaction the device got. */
  async function toWaitingPage(page: Page): Promise<string> {
    await page.goto(authorizeUrl());
    await page.getByLabel('Email address', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await Promise.all([page.waitForURL((u) => u.pathname === '/mfa'), page.getByRole('button', { name: 'Log in', exact: true }).click()]);
    const sent = apns.notifications.length;
    await Promise.all([page.waitForURL((u) => u.pathname === '/mfa/send'), page.getByRole('button', { name: 'Send a notification', exact: true }).click()]);
    await page.locator('#push-waiting').waitFor();
    assert.ok(await waitFor(() => apns.notifications.length > sent, 10_000), 'the notification reached APNs');
    const notification = apns.notifications.at(-1)!;
    assert.equal(notification.deviceToken, device.token);
    return (notification.payload.gatehouse as { txn: string }).txn;
  }

  /** The device approves the transaction with its key. */
  async function approve(txn: string): Promise<void> {
    const audience = `${server.baseUrl}/guardian/api/resolve-transaction`;
    const res = await call('POST', '/guardian/api/resolve-transaction', undefined, `Bearer ${await signDeviceJwt(device, txn, audience, Date.now(), pushAnswer(true))}`);
    assert.equal(res.status, 204, res.text);
  }

  function assertCallback(page: Page): void {
    const url = new URL(page.url());
    assert.equal(`${url.origin}${url.pathname}`, `${callbackServer.origin}/callback`, page.url());
    assert.ok(url.searchParams.get('code'), 'a code');
  }

  const problems = (scenario: Scenario) => scenario.log.filter((line) => /csp-violation|Content Security Policy|Refused to|page error/i.test(line));

  test('script on: the page asks the status route and, once the device approves, goes on to the application by itself', async () => {
    await inScenario(browser, 'push wait script', async (scenario) => {
      const { page } = scenario;
      await scenario.context.addInitScript(REPORT_VIOLATIONS);
      const documents: string[] = [];
      const statuses: { status: number; body: string }[] = [];
      page.on('request', (request) => {
        if (request.resourceType() === 'document') documents.push(`${request.method()} ${new URL(request.url()).pathname}`);
      });
      page.on('response', (response) => {
        if (new URL(response.url()).pathname === '/mfa/push-status') void response.text().then((body) => statuses.push({ status: response.status(), body }), () => undefined);
      });
      const txn = await toWaitingPage(page);
      assert.equal(await page.locator('form[data-push-status]').count(), 1, 'the waiting form');
      await scenario.shot('waiting');
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme });
        assert.deepEqual(await axeViolations(page), [], `${colorScheme}: axe reports nothing on the waiting page`);
      }

      // The script asks while the device has not answered: pending, and the page stays.
      assert.ok(await waitFor(() => statuses.length > 0, 15_000), 'the page asked the status route');
      assert.deepEqual(statuses[0], { status: 200, body: '{"status":"pending"}' });
      assert.equal(new URL(page.url()).pathname, '/mfa/send', 'still the waiting page');

      const [posted] = await Promise.all([
        page.waitForRequest((r) => r.method() === 'POST' && new URL(r.url()).pathname === '/mfa', { timeout: 20_000 }),
        page.waitForURL((u) => u.href.startsWith(`${callbackServer.origin}/callback`), { timeout: 20_000 }),
        approve(txn),
      ]);
      const form = new URLSearchParams(posted.postData() ?? '');
      assert.equal(form.get('method'), 'push');
      assert.ok(form.get('oob_code'), 'the form posted the push');
      assertCallback(page);
      assert.ok(!documents.some((d) => d === 'GET /mfa/send' || d.startsWith('GET /mfa?')), `nothing reloaded the page: ${documents.join(', ')}`);
      assert.deepEqual(problems(scenario), []);
    });
  });

  test('JavaScript disabled: nothing is asked; the button shows the waiting page again until the device approves, then reaches the application', async () => {
    const context = await browser.newContext({ ignoreHTTPSErrors: true, javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      const asked: string[] = [];
      const console: string[] = [];
      page.on('request', (request) => {
        if (new URL(request.url()).pathname === '/mfa/push-status') asked.push(request.url());
      });
      page.on('console', (message) => console.push(message.text()));
      const txn = await toWaitingPage(page);
      const button = page.getByRole('button', { name: 'I have approved it', exact: true });
      await Promise.all([page.waitForURL((u) => u.pathname === '/mfa'), button.click()]);
      await page.locator('#push-waiting').waitFor();
      assert.equal(await page.locator('form[data-push-status]').count(), 1, 'not approved yet: the waiting page again');
      await approve(txn);
      await Promise.all([page.waitForURL((u) => u.href.startsWith(`${callbackServer.origin}/callback`)), button.click()]);
      assertCallback(page);
      assert.deepEqual(asked, [], 'without script the page asks nothing');
      assert.deepEqual(console.filter((e) => /Content Security Policy|Refused/i.test(e)), []);
    } finally {
      await context.close();
    }
  });
});
