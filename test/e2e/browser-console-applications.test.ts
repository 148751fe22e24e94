/**
 * The admin console's way in and its applications, in Chromium against the
 * built server over HTTPS, with the real console (dist/console/):
 *
 * - the setup page (`/admin/setup?ticket=…`) opens the console signed in as
 *   the administrator it just created: no login page on the way;
 * - the console's login page offers no sign-up, and `/dbconnections/signup`
 *   refuses the console's client in the service's error shape;
 * - a "Regular web application" created in the console is first-party with
 *   `client_secret_post`; the console switches it to Basic and reveals its
 *   secret, and an `express-openid-connect` application configured with
 *   that secret logs a user in through the hosted login page without a
 *   consent page.
 *
 * Every step's page is saved under test-output/screenshots/<scenario>/.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import { after, before, describe, test } from 'node:test';
import express from 'express';
import eoc from 'express-openid-connect';
import type { Browser, Page } from 'playwright-core';
import { createTlsCertificate } from '../../src/platform/crypto/certificates.js';
import { ADMINISTRATOR_ROLE_NAME } from '../../src/domain/console/setup.js';
import { freePort, startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { chromiumSkipReason, inScenario, launchChromium, managementApi, type ManagementApi, type Scenario } from './support/chromium.js';
import { caFetch, cleanUp, httpsRequest } from './support/https.js';

const { auth, requiresAuth } = eoc;

const PASSWORD = 'Sunny-Meadow-42';
const REALM = 'Username-Password-Authentication';

const skip = chromiumSkipReason();
let server: ServerProcess;
let management: ManagementApi;
let browser: Browser | undefined;
let rp: https.Server | undefined;

const suffix = () => randomBytes(4).toString('hex');

/** The first setup link the server printed. */
function printedLink(): string {
  const match = /https:\/\/\S+\/admin\/setup\?ticket=[A-Za-z0-9_-]{43}/.exec(server.output());
  assert.ok(match, `no setup link in the output:\n${server.output()}`);
  return match[0];
}

/** Every address the page's main frame went to, in order (redirects included). */
function visited(page: Page): URL[] {
  const urls: URL[] = [];
  page.on('request', (request) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) urls.push(new URL(request.url()));
  });
  return urls;
}

async function heading(page: Page, name: string): Promise<void> {
  await page.getByRole('heading', { level: 1, name, exact: true }).waitFor();
}

/** /admin/ → /authorize → the hosted login page: the credentials typed in, back on the console. */
async function logIn(scenario: Scenario, email: string): Promise<void> {
  const { page } = scenario;
  await page.goto(`${server.baseUrl}/admin/`);
  await page.waitForURL((url) => url.origin === server.baseUrl && url.pathname === '/login');
  await page.getByLabel('Email address', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await Promise.all([page.waitForURL((url) => url.pathname === '/admin/'), page.getByRole('button', { name: 'Log in' }).click()]);
}

/** An operator holding the administrator role, in the console's connection. */
async function administrator(): Promise<string> {
  const email = `admin-${suffix()}@example.com`;
  const user = await management('POST', '/users', { connection: REALM, email, password: PASSWORD });
  const roles = (await management('GET', `/roles?name_filter=${encodeURIComponent(ADMINISTRATOR_ROLE_NAME)}`)) as unknown as { id: string; name: string }[];
  const role = roles.find((r) => r.name === ADMINISTRATOR_ROLE_NAME);
  assert.ok(role, 'the administrator role exists');
  await management('POST', `/users/${encodeURIComponent(user.user_id as string)}/roles`, { roles: [role.id] });
  return email;
}

before(async () => {
  if (skip) return;
  // A fresh tenant with its default database connection: the first start prints the setup link.
  server = await startServerProcess({ timeoutMs: 120_000, env: { GATEHOUSE_DEFAULT_CONNECTION: '1' } });
  browser = await launchChromium();
  management = await managementApi(server);
});

after(async () => {
  await browser?.close();
  await new Promise<void>((resolve) => {
    rp?.closeAllConnections();
    rp ? rp.close(() => resolve()) : resolve();
  });
  await cleanUp(server ? [server] : [], server ? [server.dataDir] : []);
});

describe('admin console: setup, no signup, a regular web application with express-openid-connect', { skip }, () => {
  test('the setup page opens the console signed in as the new administrator, without a login page', async () => {
    await inScenario(browser!, 'console setup signs in', async (scenario) => {
      const { page } = scenario;
      const urls = visited(page);
      await page.goto(printedLink());
      await page.getByLabel('Email address', { exact: true }).fill('first-admin@example.com');
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.getByLabel('Confirm password', { exact: true }).fill(PASSWORD);
      await page.getByRole('button', { name: 'Create the administrator' }).click();
      await heading(page, 'Applications');
      await page.getByText('first-admin@example.com').first().waitFor();
      await scenario.shot('the console, signed in');
      const paths = urls.map((u) => u.pathname);
      assert.ok(paths.includes('/authorize'), `the console went through /authorize: ${paths.join(' ')}`);
      assert.ok(!paths.includes('/login'), `no login page on the way: ${paths.join(' ')}`);
      assert.equal(new URL(page.url()).pathname, '/admin/');
    });
    // A second browser has no session: the console sends it to the login page.
    await inScenario(browser!, 'console setup other browser', async (scenario) => {
      await scenario.page.goto(`${server.baseUrl}/admin/`);
      await scenario.page.waitForURL((url) => url.pathname === '/login');
    });
  });

  test('the console login page has no sign-up link, and /dbconnections/signup refuses the console client', async () => {
    const config = (await (await caFetch(fs.readFileSync(server.certFile))(`${server.baseUrl}/admin/config.json`)).json()) as { client_id: string };
    await inScenario(browser!, 'console login without signup', async (scenario) => {
      const { page } = scenario;
      await page.goto(`${server.baseUrl}/admin/`);
      await page.waitForURL((url) => url.pathname === '/login');
      await page.getByLabel('Password', { exact: true }).waitFor();
      await scenario.shot('console login page');
      assert.equal(await page.getByRole('link', { name: /sign up/i }).count(), 0, 'no sign-up link');
      assert.equal(await page.locator('a[href^="/signup"]').count(), 0, 'no link to the signup page');
    });
    const res = await httpsRequest(`${server.baseUrl}/dbconnections/signup`, {
      ca: fs.readFileSync(server.certFile),
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: config.client_id, connection: REALM, email: 'visitor@example.com', password: PASSWORD }),
    });
    assert.equal(res.status, 400, res.text);
    assert.deepEqual(JSON.parse(res.text), { name: 'BadRequestError', code: 'operation_not_allowed', description: 'Public signup is disabled', statusCode: 400 });
    const found = (await management('GET', '/users-by-email?email=visitor%40example.com')) as unknown as unknown[];
    assert.deepEqual(found, []);
  });

  test('a regular web application made in the console (Basic, its revealed secret) logs a user in to express-openid-connect without a consent page', async () => {
    const email = await administrator();
    const customer = `customer-${suffix()}@example.com`;
    await management('POST', '/users', { connection: REALM, email: customer, password: PASSWORD });
    const port = await freePort();
    const rpOrigin = `https://127.0.0.1:${port}`;
    const appName = `Storefront ${suffix()}`;
    let clientId = '';
    let secret = '';

    await inScenario(browser!, 'console regular web application', async (scenario) => {
      const { page } = scenario;
      await logIn(scenario, email);
      await heading(page, 'Applications');
      const create = page.getByRole('form', { name: 'Create an application' });
      await create.getByLabel('Name').fill(appName);
      await create.getByLabel('Application type').selectOption('regular_web');
      await create.getByRole('button', { name: 'Create application' }).click();
      await heading(page, appName);
      clientId = decodeURIComponent(new URL(page.url()).hash.split('/').pop() ?? '');
      // Created as the service's dashboard creates it.
      const created = await management('GET', `/clients/${clientId}`);
      assert.deepEqual([created.app_type, created.is_first_party, created.token_endpoint_auth_method], ['regular_web', true, 'client_secret_post']);
      assert.equal(await page.getByTestId('auth-method').textContent(), 'Post');
      assert.ok(await page.getByRole('form', { name: 'Settings' }).getByRole('checkbox', { name: 'First-party application' }).isChecked());

      // Its callback and logout URL.
      const settings = page.getByRole('form', { name: 'Settings' });
      await settings.getByLabel('Allowed callback URLs').fill(`${rpOrigin}/callback`);
      await settings.getByLabel('Allowed logout URLs').fill(rpOrigin);
      await settings.getByRole('button', { name: 'Save settings' }).click();
      await settings.getByText('Settings saved.').waitFor();

      // Basic, as express-openid-connect authenticates by default.
      const method = page.getByRole('form', { name: 'Token endpoint authentication' });
      assert.deepEqual(await method.getByLabel('Authentication method').locator('option').allTextContents(), ['None', 'Post', 'Basic']);
      await method.getByLabel('Authentication method').selectOption({ label: 'Basic' });
      await method.getByRole('button', { name: 'Save authentication method' }).click();
      await method.getByText('Authentication method saved.').waitFor();
      await page.getByTestId('auth-method').filter({ hasText: 'Basic' }).waitFor();
      assert.equal((await management('GET', `/clients/${clientId}`)).token_endpoint_auth_method, 'client_secret_basic');

      // The secret, read from the page.
      await page.getByRole('button', { name: 'Reveal secret' }).click();
      secret = (await page.getByTestId('client-secret').textContent()) ?? '';
      assert.match(secret, /^[A-Za-z0-9_-]{64}$/);
      await scenario.shot('application: basic, secret revealed');
    });
    assert.equal(secret, (await management('GET', `/clients/${clientId}`)).client_secret);

    // The application, configured with what the console showed.
    const material = await createTlsCertificate(['127.0.0.1']);
    const app = express();
    app.use(
      auth({
        issuerBaseURL: server.baseUrl,
        baseURL: rpOrigin,
        clientID: clientId,
        clientSecret: secret,
        secret: randomBytes(32).toString('hex'),
        authRequired: false,
        authorizationParams: { response_type: 'code', scope: 'openid email' },
        customFetch: caFetch(fs.readFileSync(server.certFile)),
      } as Parameters<typeof auth>[0]),
    );
    app.get('/profile', requiresAuth(), (req, res) => {
      res.type('html').send(`<!DOCTYPE html><html lang="en"><head><title>Profile</title></head><body><h1>Signed in as ${String(req.oidc.user?.email)}</h1></body></html>`);
    });
    rp = https.createServer({ cert: material.certPem, key: material.keyPem }, app);
    await new Promise<void>((resolve) => rp!.listen(port, '127.0.0.1', resolve));

    await inScenario(browser!, 'express-openid-connect with the console application', async (scenario) => {
      const { page } = scenario;
      const urls = visited(page);
      await page.goto(`${rpOrigin}/profile`);
      await page.waitForURL((url) => url.pathname === '/login');
      await page.getByLabel('Email address', { exact: true }).fill(customer);
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.getByRole('heading', { name: `Signed in as ${customer}` }).waitFor();
      await scenario.shot('signed in to the application');
      const paths = urls.filter((u) => u.origin === server.baseUrl).map((u) => u.pathname);
      assert.ok(!paths.includes('/consent'), `no consent page: ${paths.join(' ')}`);
    });
  });
});
