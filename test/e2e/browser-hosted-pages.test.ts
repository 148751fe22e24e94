/**
 * The hosted pages of /authorize in a real browser (Debian's Chromium through
 * playwright-core, ./support/chromium.ts) against the built server over
 * HTTPS: signup, login, the SSO session, forgot and reset password, consent
 * for a third-party client (accepted and declined), and markup where the
 * tenant accepts it (a login_hint, a scope's description; the Management API
 * refuses `<` and `>` in an application's name) shown as text. Fields are
 * found by their labels and buttons by their names, as a person (or a
 * screen reader) finds them; an error must be tied to its field
 * (aria-describedby), as src/authentication/pages/authorize.ts promises.
 *
 * The applications' callback is a tiny HTTP server on 127.0.0.1 that shows
 * the query it received, so the last screenshot of a flow shows the code.
 * Every page visited is saved under test-output/screenshots/<scenario>/.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { decodeJwt } from 'jose';
import type { Browser, Page } from 'playwright-core';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { chromiumSkipReason, inScenario, launchChromium, managementApi, redirectChain, startLocalServer, type LocalServer, type ManagementApi, type Scenario } from './support/chromium.js';
import { cleanUp, httpsRequest, managementToken, waitFor } from './support/https.js';

const PASSWORD = 'Sunny-Meadow-42';
const WEAK_PASSWORD = 'abc';
const API_SCOPE = 'read:reports';
const API_SCOPE_DESCRIPTION = 'Read your reports';
/** Markup that would run a script if a page inserted it unescaped (the pages' CSP would still block the handler). */
const MARKUP = '<img src=x onerror=alert(1)>';
const MARKUP_SCOPE = 'read:markup';
/** Every character the API accepts in a name that means something in HTML. */
const MARKUP_APP_NAME = `Tom & Jerry's "Reports"`;
const CONNECTION = 'browser-users';

interface App {
  clientId: string;
  clientSecret: string;
}

const skip = chromiumSkipReason();
let server: ServerProcess;
let ca: Buffer;
let callbackServer: LocalServer;
let callback: string;
let api: string;
let management: ManagementApi;
let connectionId: string;
let browser: Browser | undefined;
/** First-party regular web applications of the tenant. */
let webApp: App;
let otherWebApp: App;
/** A third-party application (is_first_party: false): its users consent. */
let thirdParty: App;
/** A third-party application named with `&`, `'` and `"`, asking for an API whose scope is described with markup. */
let markupApp: App;
let markupApi: string;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** The application's callback: a page listing the query parameters it received. */
const showQuery: Parameters<typeof startLocalServer>[0] = (req, res) => {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const rows = [...url.searchParams].map(([name, value]) => `<dt>${escapeHtml(name)}</dt><dd>${escapeHtml(value)}</dd>`).join('\n');
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(`<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Callback</title></head>
<body><h1>The application received</h1><dl>${rows}</dl></body></html>`);
};

async function createApp(name: string, firstParty: boolean): Promise<App> {
  const created = await management('POST', '/clients', {
    name,
    app_type: 'regular_web',
    is_first_party: firstParty,
    token_endpoint_auth_method: 'client_secret_post',
    callbacks: [callback],
    grant_types: ['authorization_code'],
  });
  const clientId = created.client_id as string;
  await management('PATCH', `/connections/${connectionId}/clients`, [{ client_id: clientId, status: true }]);
  return { clientId, clientSecret: created.client_secret as string };
}

async function createUser(email: string, password = PASSWORD): Promise<void> {
  await management('POST', '/users', { connection: CONNECTION, email, password });
}

const newEmail = (who: string) => `${who}-${randomBytes(4).toString('hex')}@example.com`;

before(async () => {
  if (skip) return;
  // One after the other: whichever fails, the one already started is there for after() to stop.
  server = await startServerProcess();
  browser = await launchChromium();
  ca = fs.readFileSync(server.certFile);
  callbackServer = await startLocalServer(showQuery);
  callback = `${callbackServer.origin}/callback`;
  api = `https://reports-${randomBytes(4).toString('hex')}.example.com/`;
  management = await managementApi(server);
  await management('POST', '/resource-servers', { identifier: api, name: 'Reports API', scopes: [{ value: API_SCOPE, description: API_SCOPE_DESCRIPTION }] });
  connectionId = (await management('POST', '/connections', { name: CONNECTION, strategy: 'auth0' })).id as string;
  webApp = await createApp('Browser Web App', true);
  otherWebApp = await createApp('Other Web App', true);
  thirdParty = await createApp('Third Party Reports', false);
  markupApp = await createApp(MARKUP_APP_NAME, false);
  markupApi = `https://markup-${randomBytes(4).toString('hex')}.example.com/`;
  await management('POST', '/resource-servers', { identifier: markupApi, name: 'Markup API', scopes: [{ value: MARKUP_SCOPE, description: MARKUP }] });
});

after(async () => {
  await browser?.close();
  await callbackServer?.close();
  await cleanUp(server ? [server] : [], server ? [server.dataDir] : []);
});

/** The /authorize URL of the authorization code flow for an application, with a fresh state. */
function authorizeUrl(app: App, extra: Record<string, string> = {}): { url: string; state: string } {
  const state = randomBytes(12).toString('base64url');
  const params = new URLSearchParams({ response_type: 'code', client_id: app.clientId, redirect_uri: callback, scope: 'openid profile email', state, ...extra });
  return { url: `${server.baseUrl}/authorize?${params}`, state };
}

/** Runs `action` (a click, a key press) and waits for the page it loads. */
async function navigation(page: Page, action: () => Promise<unknown>) {
  const [response] = await Promise.all([page.waitForNavigation(), action()]);
  return response;
}

/** The page is the application's callback with the expected state and a code, and shows them; returns the code. */
async function assertCallback(scenario: Scenario, state: string, step: string): Promise<string> {
  const { page } = scenario;
  const url = new URL(page.url());
  assert.equal(`${url.origin}${url.pathname}`, callback, `on the callback, not ${page.url()}`);
  assert.equal(url.searchParams.get('error'), null, `no error: ${url.searchParams.get('error_description')}`);
  assert.equal(url.searchParams.get('state'), state);
  const code = url.searchParams.get('code') ?? '';
  assert.match(code, /^[A-Za-z0-9_-]{16,}$/);
  await page.getByText(code, { exact: true }).waitFor();
  await scenario.shot(step);
  return code;
}

/** The heading of the page, which names it. */
async function heading(page: Page): Promise<string> {
  return (await page.getByRole('heading', { level: 1 }).textContent()) ?? '';
}

/** The texts of the elements a field's aria-describedby names. */
async function descriptionOf(page: Page, label: string): Promise<string[]> {
  const ids = (await page.getByLabel(label, { exact: true }).getAttribute('aria-describedby')) ?? '';
  assert.notEqual(ids, '', `the ${label} field is described by something`);
  return Promise.all(ids.split(/\s+/).map(async (id) => (await page.locator(`[id="${id}"]`).textContent()) ?? ''));
}

/** POST /oauth/token with the code; the ID token's and access token's claims. */
async function exchange(app: App, code: string): Promise<{ id: Record<string, unknown>; access: Record<string, unknown> }> {
  const res = await httpsRequest(`${server.baseUrl}/oauth/token`, {
    ca,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ grant_type: 'authorization_code', client_id: app.clientId, client_secret: app.clientSecret, code, redirect_uri: callback }),
  });
  assert.equal(res.status, 200, res.text);
  const tokens = res.json<{ id_token: string; access_token: string }>();
  return { id: decodeJwt(tokens.id_token), access: decodeJwt(tokens.access_token) };
}

/** Fills the login page and submits it with Enter, as a keyboard user does. */
async function logInWithKeyboard(page: Page, email: string, password: string) {
  await page.getByLabel('Email address', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  return navigation(page, () => page.getByLabel('Password', { exact: true }).press('Enter'));
}

/** The newest password reset mail to `email` in the server's outbox file (no SMTP configured). */
async function resetLinkFor(email: string): Promise<string> {
  const outbox = path.join(server.dataDir, 'outbox.jsonl');
  let link: string | undefined;
  const found = await waitFor(() => {
    if (!fs.existsSync(outbox)) return false;
    const mails = fs
      .readFileSync(outbox, 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { to: string; subject: string; text: string })
      .filter((mail) => mail.to === email && mail.subject === 'Reset your password');
    link = /https:\/\/\S+\/reset-password\?ticket=\S+/.exec(mails.at(-1)?.text ?? '')?.[0];
    return link !== undefined;
  }, 10_000);
  assert.ok(found && link, `a reset mail to ${email} in ${outbox}`);
  return link;
}

describe('hosted pages in Chromium', { skip }, () => {
  test('signup (a too weak password first), then a second application logs in through the SSO session', async () => {
    await inScenario(browser!, 'signup and sso', async (scenario) => {
      const { page } = scenario;
      const email = newEmail('signup');
      const first = authorizeUrl(webApp, { screen_hint: 'signup' });
      const toSignup = await page.goto(first.url);
      assert.equal(new URL(page.url()).pathname, '/signup');
      assert.equal(toSignup?.status(), 200);
      assert.equal(await heading(page), 'Sign up');
      await scenario.shot('signup page');

      await page.getByLabel('Email address', { exact: true }).fill(email);
      await page.getByLabel('Password', { exact: true }).fill(WEAK_PASSWORD);
      const refused = await navigation(page, () => page.getByRole('button', { name: 'Sign up' }).click());
      assert.equal(refused?.status(), 400);
      await scenario.shot('password too weak');
      assert.equal(await page.getByLabel('Password', { exact: true }).getAttribute('aria-invalid'), 'true');
      const [description] = await descriptionOf(page, 'Password');
      assert.match(description ?? '', /^Your password is too weak\./);
      assert.equal(await page.getByRole('alert').textContent(), description, 'the error tied to the field is announced');
      assert.equal(await page.getByLabel('Email address', { exact: true }).inputValue(), email, 'the email is kept');

      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await navigation(page, () => page.getByRole('button', { name: 'Sign up' }).click());
      const code = await assertCallback(scenario, first.state, 'signed up: callback');
      const { id } = await exchange(webApp, code);
      assert.equal(id.email, email, 'the code is for the new account');
      const session = (await scenario.context.cookies(server.baseUrl)).find((c) => c.name === '__Host-gh_session');
      assert.ok(session, 'the SSO session cookie is set');
      assert.equal(session.sameSite, 'None');
      assert.ok(session.secure && session.httpOnly);

      const second = authorizeUrl(otherWebApp);
      const response = await page.goto(second.url);
      const chain = redirectChain(response).map((url) => url.pathname);
      assert.deepEqual(chain, ['/authorize', '/callback'], 'straight to the callback: no login page');
      const again = await assertCallback(scenario, second.state, 'sso: callback of the second application');
      assert.equal((await exchange(otherWebApp, again)).id.sid, id.sid, 'the same session');
    });
  });

  test('login: a wrong password shows the error, the right one (submitted with Enter) reaches the callback', async () => {
    await inScenario(browser!, 'login wrong then right password', async (scenario) => {
      const { page } = scenario;
      const email = newEmail('login');
      await createUser(email);
      const { url, state } = authorizeUrl(webApp);
      await page.goto(url);
      assert.equal(new URL(page.url()).pathname, '/login');
      assert.equal(await heading(page), 'Log in');
      assert.equal(await page.title(), 'Log in to Browser Web App');
      await scenario.shot('login page');

      const refused = await logInWithKeyboard(page, email, `${PASSWORD}-wrong`);
      assert.equal(refused?.status(), 400);
      await scenario.shot('wrong password');
      assert.equal(await page.getByRole('alert').textContent(), 'Wrong email or password.');
      assert.deepEqual(await descriptionOf(page, 'Password'), ['Wrong email or password.']);
      assert.equal(await page.getByLabel('Password', { exact: true }).getAttribute('aria-invalid'), 'true');
      assert.equal(await page.getByLabel('Email address', { exact: true }).inputValue(), email, 'the email is kept');

      await logInWithKeyboard(page, email, PASSWORD);
      const code = await assertCallback(scenario, state, 'logged in: callback');
      assert.equal((await exchange(webApp, code)).id.email, email);
    });
  });

  test('forgot password: the emailed link opens the reset form, and the new password logs in', async () => {
    await inScenario(browser!, 'forgot and reset password', async (scenario) => {
      const { page } = scenario;
      const email = newEmail('forgot');
      const newPassword = 'Quiet-River-77';
      await createUser(email);
      await page.goto(authorizeUrl(webApp).url);
      await scenario.shot('login page');

      await navigation(page, () => page.getByRole('link', { name: 'Forgot your password?' }).click());
      assert.equal(new URL(page.url()).pathname, '/forgot-password');
      assert.equal(await heading(page), 'Forgot your password?');
      await scenario.shot('forgot password page');
      await page.getByLabel('Email address', { exact: true }).fill(email);
      await navigation(page, () => page.getByRole('button', { name: 'Send the link' }).click());
      assert.equal(await heading(page), 'Check your email');
      await scenario.shot('check your email');

      const link = await resetLinkFor(email);
      assert.equal(new URL(link).origin, server.baseUrl);
      const reset = await page.goto(link);
      assert.equal(reset?.status(), 200);
      assert.equal(await heading(page), 'Reset your password');
      await scenario.shot('reset form');
      await page.getByLabel('New password', { exact: true }).fill(newPassword);
      await page.getByLabel('Confirm new password', { exact: true }).fill(newPassword);
      const done = await navigation(page, () => page.getByRole('button', { name: 'Set password' }).click());
      assert.equal(done?.status(), 200);
      assert.equal(await heading(page), 'Password changed');
      await scenario.shot('password changed');

      const { url, state } = authorizeUrl(webApp);
      await page.goto(url);
      assert.equal(new URL(page.url()).pathname, '/login');
      await scenario.shot('login page again');
      await logInWithKeyboard(page, email, newPassword);
      const code = await assertCallback(scenario, state, 'logged in with the new password: callback');
      assert.equal((await exchange(webApp, code)).id.email, email);
    });
  });

  test('a third-party application: the consent page lists the scopes, Accept gives a code for the API', async () => {
    await inScenario(browser!, 'third party consent', async (scenario) => {
      const { page } = scenario;
      const email = newEmail('consent');
      await createUser(email);
      const { url, state } = authorizeUrl(thirdParty, { audience: api, scope: `openid email ${API_SCOPE}` });
      await page.goto(url);
      assert.equal(new URL(page.url()).pathname, '/login');
      await scenario.shot('login page');
      await logInWithKeyboard(page, email, PASSWORD);

      assert.equal(new URL(page.url()).pathname, '/consent');
      assert.equal(await heading(page), 'Authorize Third Party Reports');
      await scenario.shot('consent page');
      const items = (await page.getByRole('listitem').allTextContents()).map((text) => text.trim());
      assert.ok(items.includes(`${API_SCOPE}: ${API_SCOPE_DESCRIPTION}`), `the API scope with its description in ${JSON.stringify(items)}`);
      assert.ok(
        items.some((item) => item.startsWith('openid')),
        `the OpenID Connect scopes in ${JSON.stringify(items)}`,
      );
      await page.getByText('Reports API', { exact: true }).waitFor();

      await navigation(page, () => page.getByRole('button', { name: 'Accept' }).click());
      const code = await assertCallback(scenario, state, 'accepted: callback');
      const { access } = await exchange(thirdParty, code);
      assert.ok(([] as unknown[]).concat(access.aud).includes(api), 'an access token for the API');
      assert.ok(String(access.scope).split(' ').includes(API_SCOPE));
    });
  });

  test('markup where the tenant accepts it (a login_hint, a scope description, quotes in a name) shows as text, and no script runs', async () => {
    // The first defence: the Management API refuses `<` and `>` in an application's name, as the service does.
    const refused = await httpsRequest(`${server.baseUrl}/api/v2/clients`, {
      ca,
      method: 'POST',
      headers: { authorization: `Bearer ${await managementToken(server)}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: MARKUP }),
    });
    assert.equal(refused.status, 400, refused.text);
    assert.match(refused.json<{ message: string }>().message, /does not allow `<` or `>`/);

    await inScenario(browser!, 'markup shown as text', async (scenario) => {
      const { page } = scenario;
      const email = newEmail('markup');
      await createUser(email);
      const { url, state } = authorizeUrl(markupApp, { login_hint: `"${MARKUP}`, audience: markupApi, scope: `openid ${MARKUP_SCOPE}` });
      await page.goto(url);
      assert.equal(new URL(page.url()).pathname, '/login');
      await scenario.shot('login page');
      assert.equal(await page.title(), `Log in to ${MARKUP_APP_NAME}`);
      assert.equal(await page.locator('strong').textContent(), MARKUP_APP_NAME);
      assert.equal(await page.getByLabel('Email address', { exact: true }).inputValue(), `"${MARKUP}`, 'the hint stays inside the field');
      assert.equal(await page.locator('img').count(), 0, 'no element was made of the hint');

      await logInWithKeyboard(page, email, PASSWORD);
      assert.equal(new URL(page.url()).pathname, '/consent');
      await scenario.shot('consent page');
      assert.equal(await heading(page), `Authorize ${MARKUP_APP_NAME}`);
      const items = (await page.getByRole('listitem').allTextContents()).map((text) => text.trim());
      assert.ok(items.includes(`${MARKUP_SCOPE}: ${MARKUP}`), `the scope's description as text in ${JSON.stringify(items)}`);
      assert.equal(await page.locator('img').count(), 0, 'no element was made of the description');

      await navigation(page, () => page.getByRole('button', { name: 'Decline' }).click());
      const declined = new URL(page.url());
      assert.equal(`${declined.origin}${declined.pathname}`, callback);
      assert.equal(declined.searchParams.get('error'), 'access_denied');
      assert.equal(declined.searchParams.get('state'), state);
      assert.equal(declined.searchParams.get('code'), null);
      await scenario.shot('declined: callback');
    });
  });
});
