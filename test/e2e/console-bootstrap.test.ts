/**
 * The admin console's way in, end to end: the built server on a fresh data
 * directory prints a one-time setup link; in Chromium the first
 * administrator is created on the setup page, which signs them in; then a stand-in console (the
 * server's /admin/ files: auth0-spa-js and a few lines that read
 * /admin/config.json, log in with redirect, and call the Management API,
 * all under the console's strict CSP) signs them in and lists the users with
 * the operator's token. A user without the administrator role is refused.
 * `gatehouse admin-link` issues a further link. The real console is built
 * by `npm run build`; this stand-in keeps the test about the server.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { tempDir } from '../helpers/app.js';
import { ROOT, startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { chromiumSkipReason, inScenario, launchChromium, managementApi, type Scenario } from './support/chromium.js';
import { caFetch, cleanUp, runNode } from './support/https.js';
import { OPERATOR_SCOPES } from '../../src/domain/console/client.js';

const PASSWORD = 'Sunny-Meadow-42';
const LIBRARY = path.join(ROOT, 'node_modules/@auth0/auth0-spa-js/dist/auth0-spa-js.production.js');

/** The stand-in console's own script: what the operator's session does, written into the page for the test to read. */
const STAND_IN = `
(async () => {
  const show = (result) => { document.body.dataset.result = JSON.stringify(result); };
  try {
    const config = await (await fetch('config.json')).json();
    const client = await auth0.createAuth0Client({
      domain: config.domain,
      clientId: config.client_id,
      authorizationParams: { audience: config.audience, scope: config.scope, redirect_uri: config.redirect_uri },
    });
    const query = new URLSearchParams(location.search);
    if (!query.has('code') && !query.has('error')) {
      document.body.dataset.ready = 'login';
      window.consoleLogin = () => client.loginWithRedirect();
      return;
    }
    await client.handleRedirectCallback();
    history.replaceState(null, '', config.redirect_uri);
    const token = await client.getTokenSilently();
    const scope = JSON.parse(atob(token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/'))).scope;
    const users = await fetch('/api/v2/users', { headers: { authorization: 'Bearer ' + token } });
    show({ ok: true, scope, status: users.status, emails: (await users.json()).map((u) => u.email) });
  } catch (e) {
    show({ ok: false, error: e.error || e.name, error_description: e.error_description || e.message });
  }
})();
`;

const skip = chromiumSkipReason();
let server: ServerProcess;
let browser: Browser | undefined;
let consoleDir: string;

/** The first setup link the server printed. */
function printedLink(): string {
  const match = /https:\/\/\S+\/admin\/setup\?ticket=[A-Za-z0-9_-]{43}/.exec(server.output());
  assert.ok(match, `no setup link in the output:\n${server.output()}`);
  return match[0];
}

before(async () => {
  if (skip) return;
  consoleDir = tempDir('gatehouse-console-');
  fs.writeFileSync(path.join(consoleDir, 'index.html'), '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>Console</title><link rel="stylesheet" href="app.css"></head><body><main><h1>Console</h1></main><script src="app.js"></script></body></html>\n');
  fs.writeFileSync(path.join(consoleDir, 'app.css'), 'body{font-family:system-ui,sans-serif}\n');
  fs.writeFileSync(path.join(consoleDir, 'app.js'), `${fs.readFileSync(LIBRARY, 'utf8')}\n${STAND_IN}`);
  server = await startServerProcess({ timeoutMs: 120_000, env: { GATEHOUSE_DEFAULT_CONNECTION: '1', GATEHOUSE_CONSOLE_DIR: consoleDir } });
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await cleanUp(server ? [server] : [], server ? [server.dataDir] : []);
  if (consoleDir) fs.rmSync(consoleDir, { recursive: true, force: true });
});

/** The stand-in's login: /authorize, answered by the browser's session when it has one (`email` undefined), else through the hosted login page. */
async function consoleLogin(scenario: Scenario, email: string | undefined): Promise<Record<string, unknown>> {
  const { page } = scenario;
  if (new URL(page.url()).pathname !== '/admin/') await page.goto(`${server.baseUrl}/admin/`);
  await page.waitForFunction(() => {
    const { dataset } = (globalThis as unknown as { document: { body: { dataset: Record<string, string | undefined> } } }).document.body;
    return dataset.ready === 'login' || dataset.result !== undefined;
  });
  const startLogin = () => void page.evaluate(() => (globalThis as unknown as { consoleLogin: () => Promise<void> }).consoleLogin()).catch(() => undefined);
  if (email === undefined) {
    const pages: string[] = [];
    page.on('request', (request) => {
      if (request.isNavigationRequest()) pages.push(new URL(request.url()).pathname);
    });
    const back = page.waitForURL((url) => url.pathname === '/admin/' && url.searchParams.has('code'), { waitUntil: 'commit' });
    startLogin();
    await back;
    const found = await result(page);
    assert.ok(!pages.includes('/login'), `signed in without the login page: ${pages.join(' ')}`);
    return found;
  }
  const toLogin = page.waitForURL((url) => url.pathname === '/login');
  startLogin();
  await toLogin;
  await scenario.shot('hosted login page');
  await page.getByLabel('Email address', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await Promise.all([page.waitForURL((url) => url.pathname === '/admin/'), page.getByRole('button', { name: 'Log in' }).click()]);
  return result(page);
}

/** What the stand-in wrote into `<body data-result>`. */
const resultOf = () => (globalThis as unknown as { document: { body: { dataset: Record<string, string | undefined> } } }).document.body.dataset.result;

async function result(page: Page): Promise<Record<string, unknown>> {
  await page.waitForFunction(resultOf);
  return JSON.parse((await page.evaluate(resultOf))!) as Record<string, unknown>;
}

const noCspViolation = (scenario: Scenario) =>
  assert.ok(!scenario.log.some((line) => /Content Security Policy|Refused to/i.test(line)), `a CSP violation:\n${scenario.report()}`);

describe('admin console: the first administrator through the printed link, then the console', { skip }, () => {
  test('the setup page creates the administrator; the console signs them in with every operator scope and lists users', async () => {
    const link = printedLink();
    assert.ok(link.startsWith(`${server.baseUrl}/admin/setup?ticket=`));
    const file = JSON.parse(fs.readFileSync(path.join(server.dataDir, 'admin-credentials.json'), 'utf8')) as { admin_console_setup_link: string };
    assert.equal(file.admin_console_setup_link, link);
    await inScenario(browser!, 'console bootstrap: first administrator', async (scenario) => {
      const { page } = scenario;
      await page.goto(link);
      await scenario.shot('setup page');
      await page.getByLabel('Email address', { exact: true }).fill('first-admin@example.com');
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.getByLabel('Confirm password', { exact: true }).fill(PASSWORD);
      await Promise.all([page.waitForURL(`${server.baseUrl}/admin/`), page.getByRole('button', { name: 'Create the administrator' }).click()]);
      await scenario.shot('the console');
      // The setup page signed the new administrator in: the console's /authorize needs no password.
      const found = await consoleLogin(scenario, undefined);
      await scenario.shot('signed in');
      assert.equal(found.ok, true, JSON.stringify(found));
      assert.equal(found.status, 200);
      assert.deepEqual(found.emails, ['first-admin@example.com']);
      assert.deepEqual(String(found.scope).split(' ').filter((s) => s.includes(':')).sort(), [...OPERATOR_SCOPES].sort());
      noCspViolation(scenario);
    });
    // Spent.
    const again = await caFetch(fs.readFileSync(server.certFile))(link);
    assert.equal(again.status, 400);
  });

  test('a user without the administrator role is refused by the console', async () => {
    const management = await managementApi(server);
    const [connection] = (await management('GET', '/connections?name=Username-Password-Authentication')) as unknown as { id: string }[];
    assert.ok(connection);
    await management('POST', '/users', { connection: 'Username-Password-Authentication', email: 'someone@example.com', password: PASSWORD });
    await inScenario(browser!, 'console bootstrap: not an operator', async (scenario) => {
      const found = await consoleLogin(scenario, 'someone@example.com');
      await scenario.shot('refused');
      assert.deepEqual(found, { ok: false, error: 'access_denied', error_description: 'The user is not an operator of this tenant.' });
    });
  });

  test('gatehouse admin-link prints a further working link', async () => {
    const run = await runNode([path.join(ROOT, 'bin/gatehouse.cjs'), 'admin-link'], {
      cwd: ROOT,
      env: { ...process.env, PORT: String(server.port), GATEHOUSE_DATA_DIR: server.dataDir, LOG_LEVEL: 'warn' },
      timeoutMs: 120_000,
    });
    assert.equal(run.code, 0, run.stderr);
    const match = /https:\/\/\S+\/admin\/setup\?ticket=[A-Za-z0-9_-]{43}/.exec(run.stdout);
    assert.ok(match, run.stdout);
    assert.notEqual(match[0], printedLink());
    const page = await caFetch(fs.readFileSync(server.certFile))(match[0]);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /Create the first administrator/);
    const unknown = await runNode([path.join(ROOT, 'bin/gatehouse.cjs'), 'admin-link', '--tenant', 'nobody.test'], {
      cwd: ROOT,
      env: { ...process.env, PORT: String(server.port), GATEHOUSE_DATA_DIR: server.dataDir, LOG_LEVEL: 'warn' },
      timeoutMs: 120_000,
    });
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /no tenant serves "nobody\.test"/);
  });
});
