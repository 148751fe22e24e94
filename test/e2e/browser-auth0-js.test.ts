/**
 * Embedded login with auth0.js (the service's browser SDK, its browser
 * bundle from node_modules, unchanged) in Chromium, from an application on
 * another origin than the tenant (`https://localhost:PORT`, the tenant's
 * site: Chromium keeps no third-party cookies, see browser-spa.test.ts),
 * against the built server over HTTPS:
 *
 * - `webAuth.login` with a realm: POST /co/authenticate from the
 *   application's origin (credentialed CORS), then /authorize with the
 *   login ticket, and the tokens at the application's callback, read by
 *   `parseHash` (the ID token checked by auth0.js against the JWKS);
 * - the same when the verifier cookie was not kept (the cookie stripped
 *   from the answer, as a browser blocking third-party cookies would): the
 *   verification page frames the application's `cross_origin_loc`, whose
 *   `crossOriginVerification()` hands back the verifier;
 * - `webAuth.signup` (POST /dbconnections/signup from the application);
 * - `passwordlessStart` (POST /passwordless/start) and `passwordlessLogin`
 *   (the code through /co/authenticate);
 * - `checkSession`: /authorize with `prompt=none` and
 *   `response_mode=web_message` in auth0.js's hidden iframe.
 *
 * The refusals (origins, clients without cross-origin authentication,
 * spent, expired and foreign tickets, wrong passwords) are in
 * test/authentication/cross-origin.test.ts. Screenshots go to
 * test-output/screenshots/<scenario>/.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { ROOT, startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { callPage, chromiumSkipReason, inScenario, launchChromium, managementApi, startLocalServer, type LocalServer, type ManagementApi, type Outcome, outcomeValue, type Scenario } from './support/chromium.js';
import { cleanUp } from './support/https.js';

const PASSWORD = 'Sunny-Meadow-42';
const CONNECTION = 'embedded-users';
const APP_DIR = path.join(ROOT, 'test/e2e/support/auth0-js');
const LIBRARY = path.join(ROOT, 'node_modules/auth0-js/dist/auth0.min.js');


interface ParsedHash {
  accessToken: string;
  idToken: string;
  idTokenPayload: { sub: string; email?: string };
}

const skip = chromiumSkipReason();
let server: ServerProcess;
let app: LocalServer;
let management: ManagementApi;
let clientId: string;
let browser: Browser | undefined;

const JS = 'text/javascript; charset=utf-8';
const HTML = 'text/html; charset=utf-8';
const FILES: Readonly<Record<string, { file: string; type: string }>> = {
  '/': { file: path.join(APP_DIR, 'index.html'), type: HTML },
  '/callback': { file: path.join(APP_DIR, 'index.html'), type: HTML },
  '/verify.html': { file: path.join(APP_DIR, 'verify.html'), type: HTML },
  '/app.js': { file: path.join(APP_DIR, 'app.js'), type: JS },
  '/verify.js': { file: path.join(APP_DIR, 'verify.js'), type: JS },
  '/auth0.min.js': { file: LIBRARY, type: JS },
};

const serveApp: Parameters<typeof startLocalServer>[0] = (req, res) => {
  const served = FILES[new URL(req.url ?? '/', 'http://127.0.0.1').pathname];
  if (!served) {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    return;
  }
  res.writeHead(200, { 'content-type': served.type, 'cache-control': 'no-store' });
  res.end(fs.readFileSync(served.file));
};

const newEmail = (who: string) => `${who}-${randomBytes(4).toString('hex')}@example.com`;

before(async () => {
  if (skip) return;
  server = await startServerProcess();
  browser = await launchChromium();
  const tls = { cert: fs.readFileSync(server.certFile), key: fs.readFileSync(path.join(server.dataDir, 'tls', 'key.pem')) };
  app = await startLocalServer(serveApp, tls);
  management = await managementApi(server);
  const created = await management('POST', '/clients', {
    name: 'Embedded login',
    app_type: 'spa',
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code', 'implicit'],
    callbacks: [`${app.origin}/callback`],
    web_origins: [app.origin],
    is_first_party: true,
    cross_origin_authentication: true,
  });
  clientId = created.client_id as string;
  await management('PATCH', `/clients/${clientId}`, { cross_origin_loc: `${app.origin}/verify.html?${new URLSearchParams({ domain: server.domain, client_id: clientId })}` });
  await management('POST', '/connections', { name: CONNECTION, strategy: 'auth0', enabled_clients: [clientId] });
  await management('POST', '/connections', { name: 'email', strategy: 'email', enabled_clients: [clientId] });
});

after(async () => {
  await browser?.close();
  await app?.close();
  await cleanUp(server ? [server] : [], server ? [server.dataDir] : []);
});

/** Calls `window.app[method](arg)` in the page. */
const call = <T = unknown>(page: Page, method: string, arg?: unknown): Promise<Outcome<T>> => callPage<T>(page, 'app', method, arg);
const value = outcomeValue;

const webAuthOptions = () => ({
  domain: server.domain,
  clientID: clientId,
  redirectUri: `${app.origin}/callback`,
  responseType: 'token id_token',
  scope: 'openid profile email',
});

/** The application's page with its WebAuth. */
async function openApp(page: Page): Promise<void> {
  if (!page.url().startsWith(app.origin)) await page.goto(`${app.origin}/`);
  value(await call(page, 'create', webAuthOptions()), 'new WebAuth');
}

/** Runs `start` (a call that navigates away on success) and waits for the callback with tokens; parseHash reads them. */
async function tokensAtCallback(scenario: Scenario, start: () => Promise<unknown>): Promise<ParsedHash> {
  const { page } = scenario;
  const atCallback = page.waitForURL((url) => url.href.startsWith(`${app.origin}/callback#`), { timeout: 20_000 });
  // It settles only on an error; success is the navigation, which ends the evaluation (a rejection that is no failure).
  const failed = start().then(
    (outcome) => {
      throw new Error(`the call failed: ${JSON.stringify(outcome)}`);
    },
    () => new Promise<never>(() => undefined),
  );
  await Promise.race([atCallback, failed]);
  await page.waitForLoadState('load');
  await scenario.shot('tokens at the callback');
  value(await call(page, 'create', webAuthOptions()), 'new WebAuth at the callback');
  return value(await call<ParsedHash>(page, 'parseHash'), 'parseHash');
}

async function createUser(email: string): Promise<string> {
  return (await management('POST', '/users', { connection: CONNECTION, email, password: PASSWORD })).user_id as string;
}

/** The newest code mailed to `email` (the server's outbox file). */
async function codeFor(email: string): Promise<string> {
  const outbox = path.join(server.dataDir, 'outbox.jsonl');
  for (let attempt = 0; attempt < 50; attempt++) {
    if (fs.existsSync(outbox)) {
      const mails = fs.readFileSync(outbox, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as { to: string; text: string });
      const code = /code for .* is (\d+)/.exec(mails.filter((m) => m.to === email).at(-1)?.text ?? '')?.[1];
      if (code !== undefined) return code;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no code mailed to ${email}`);
}

describe('auth0.js embedded login in Chromium', { skip }, () => {
  test('webAuth.login with a realm: /co/authenticate from the application, tokens at its callback; then checkSession through the web_message iframe', async () => {
    await inScenario(browser!, 'auth0-js login and checkSession', async (scenario) => {
      const { page } = scenario;
      const email = newEmail('embedded');
      const userId = await createUser(email);
      await openApp(page);
      const coAuthenticate = page.waitForResponse((r) => r.url() === `${server.baseUrl}/co/authenticate` && r.request().method() === 'POST');
      const parsed = await tokensAtCallback(scenario, () => call(page, 'login', { realm: CONNECTION, username: email, password: PASSWORD }));
      const answered = await coAuthenticate;
      assert.equal(answered.status(), 200);
      assert.equal(await answered.headerValue('access-control-allow-origin'), app.origin);
      assert.equal(await answered.headerValue('access-control-allow-credentials'), 'true');
      assert.equal(parsed.idTokenPayload.sub, userId);
      assert.equal(parsed.idTokenPayload.email, email);
      assert.ok(parsed.accessToken.length > 0);

      const session = value(await call<ParsedHash>(page, 'checkSession'), 'checkSession');
      assert.equal(session.idTokenPayload.sub, userId, 'the session of the embedded login answers the hidden iframe');
      await scenario.shot('checkSession');
    });
  });

  test("webAuth.login when the verifier cookie was not kept: the verification page asks the application's cross_origin_loc", async () => {
    await inScenario(browser!, 'auth0-js login verification page', async (scenario) => {
      const { page, context } = scenario;
      const email = newEmail('verified');
      const userId = await createUser(email);
      // As a browser blocking third-party cookies: the verifier cookie of /co/authenticate is not kept
      // (route.fetch shares the context's cookies, so the one it took is removed again).
      await context.route(`${server.baseUrl}/co/authenticate`, async (route) => {
        const response = await route.fetch();
        await context.clearCookies({ name: '__Host-gh_co' });
        const headers = Object.fromEntries(Object.entries(response.headers()).filter(([name]) => name.toLowerCase() !== 'set-cookie'));
        await route.fulfill({ response, headers });
      });
      const verificationFrames: string[] = [];
      page.on('framenavigated', (frame) => {
        if (frame.parentFrame() !== null && frame.url().startsWith(`${app.origin}/verify.html`)) verificationFrames.push(frame.url());
      });
      const verifyPosts: number[] = [];
      page.on('response', (response) => {
        if (response.url() === `${server.baseUrl}/co/verify` && response.request().method() === 'POST') verifyPosts.push(response.status());
      });
      await openApp(page);
      const parsed = await tokensAtCallback(scenario, () => call(page, 'login', { realm: CONNECTION, username: email, password: PASSWORD }));
      assert.equal(parsed.idTokenPayload.sub, userId);
      assert.deepEqual(verifyPosts, [302], 'the verification page posted the verifier to /co/verify');
      assert.equal(verificationFrames.length, 1, 'the verification page framed cross_origin_loc');
      assert.ok(verificationFrames[0]!.includes(`#origin=${encodeURIComponent(server.baseUrl)}`), verificationFrames[0]);
    });
  });

  test('webAuth.signup, then login as the new user', async () => {
    await inScenario(browser!, 'auth0-js signup', async (scenario) => {
      const { page } = scenario;
      const email = newEmail('signup');
      await openApp(page);
      const created = value(await call<{ email: string }>(page, 'signup', { connection: CONNECTION, email, password: PASSWORD }), 'signup');
      assert.equal(created.email, email);
      await scenario.shot('signed up');
      const parsed = await tokensAtCallback(scenario, () => call(page, 'login', { realm: CONNECTION, username: email, password: PASSWORD }));
      assert.equal(parsed.idTokenPayload.email, email);
    });
  });

  test('passwordlessStart sends a code; passwordlessLogin logs in with it through /co/authenticate', async () => {
    await inScenario(browser!, 'auth0-js passwordless', async (scenario) => {
      const { page } = scenario;
      const email = newEmail('passwordless');
      await openApp(page);
      value(await call(page, 'passwordlessStart', { connection: 'email', send: 'code', email }), 'passwordlessStart');
      await scenario.shot('code sent');
      const code = await codeFor(email);
      const wrong = await call(page, 'passwordlessLogin', { connection: 'email', email, verificationCode: code === '000000' ? '111111' : '000000' });
      assert.ok(!wrong.ok);
      assert.equal(wrong.error, 'access_denied', JSON.stringify(wrong));
      const parsed = await tokensAtCallback(scenario, () => call(page, 'passwordlessLogin', { connection: 'email', email, verificationCode: code }));
      assert.equal(parsed.idTokenPayload.email, email);
      assert.match(parsed.idTokenPayload.sub, /^email\|/);
    });
  });
});
