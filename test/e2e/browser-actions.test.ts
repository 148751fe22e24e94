/**
 * Actions in a real browser: Chromium (playwright-core) against the built
 * server over HTTPS, its actions run in the server's sandbox processes, with
 * openid-client as the application (authorization code flow with PKCE).
 *
 * - A post-login action's namespaced claims (the user's roles) reach the ID
 *   and access tokens openid-client gets.
 * - `api.redirect.sendUserTo` sends the browser to a page the test serves
 *   (another site, plain HTTP on 127.0.0.1), which checks the action's
 *   `encodeToken` token and posts a form back to `/continue` with its own
 *   token; `onContinuePostLogin` validates it, and the login completes.
 * - `api.multifactor.enable('any')` makes a user without a second factor
 *   enrol OTP (a code from an RFC 6238 library) before the application gets
 *   its code; the ID token says `amr: ["mfa"]`.
 * - A pre-user-registration action refuses a signup: the signup page shows
 *   the action's message, and no user is created.
 * Screenshots under test-output/screenshots/<scenario>/.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { jwtVerify, SignJWT } from 'jose';
import { Secret, TOTP } from 'otpauth';
import type { Browser, Page } from 'playwright-core';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { chromiumSkipReason, inScenario, launchChromium, managementApi, startLocalServer, type LocalServer, type ManagementApi } from './support/chromium.js';
import { cleanUp } from './support/https.js';
import { atCallback, navigation, codeFlowApp, authorization, submitLogin, type CodeFlowApp } from './support/code-flow-app.js';

const PASSWORD = 'Copper-Lantern-31';
const CONNECTION = 'actions-browser-users';
const NS = 'https://gatehouse.example/';
const SITE_SECRET = 'the secret the action shares with its consent page';

const skip = chromiumSkipReason();
let server: ServerProcess;
let app: CodeFlowApp;
let siteServer: LocalServer;
let management: ManagementApi;
let browser: Browser | undefined;
let audience: string;

/** The consent page an action sends the user to: it checks the action's token, then posts its answer back to /continue. */
async function consentPage(url: URL): Promise<string> {
  const state = url.searchParams.get('state') ?? '';
  const { payload } = await jwtVerify(url.searchParams.get('session_token') ?? '', new TextEncoder().encode(SITE_SECRET));
  const answer = await new SignJWT({ state, answer: 'agreed' })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer(payload.iss!)
    .setSubject(payload.sub!)
    .setExpirationTime('5m')
    .sign(new TextEncoder().encode(SITE_SECRET));
  const attr = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Terms</title></head><body><main><h1>Accept the terms, ${attr(String(payload.email))}</h1>
<form method="post" action="${attr(server.baseUrl)}/continue"><input type="hidden" name="state" value="${attr(state)}"><input type="hidden" name="session_token" value="${attr(answer)}"><button type="submit">I agree</button></form></main></body></html>`;
}

before(async () => {
  if (skip) return;
  server = await startServerProcess();
  browser = await launchChromium();
  siteServer = await startLocalServer((req, res) => {
    if (!req.url?.startsWith('/terms?')) {
      res.writeHead(404).end();
      return;
    }
    consentPage(new URL(req.url ?? '/', 'http://127.0.0.1')).then(
      (page) => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(page);
      },
      (error: Error) => {
        res.writeHead(400, { 'content-type': 'text/plain' });
        res.end(`refused: ${error.message}`);
      },
    );
  });
  management = await managementApi(server);
  app = await codeFlowApp(server, management, 'Actions Browser App');
  await management('POST', '/connections', { name: CONNECTION, strategy: 'auth0', enabled_clients: [app.clientId] });
  audience = `https://api.${randomBytes(3).toString('hex')}.example`;
  await management('POST', '/resource-servers', { name: 'Actions API', identifier: audience, scopes: [{ value: 'read:things', description: 'Read things' }] });
});

after(async () => {
  await browser?.close();
  await app?.close();
  await siteServer?.close();
  await cleanUp(server ? [server] : [], server ? [server.dataDir] : []);
});

/** Creates and deploys each action, then makes them the trigger's bindings, in order. */
async function bind(trigger: string, actions: { name: string; code: string; secrets?: Record<string, string> }[]): Promise<void> {
  const ids: string[] = [];
  for (const action of actions) {
    const created = await management('POST', '/actions/actions', {
      name: `${action.name}-${randomBytes(3).toString('hex')}`,
      supported_triggers: [{ id: trigger, version: trigger === 'post-login' ? 'v3' : 'v2' }],
      code: action.code,
      runtime: 'node22',
      secrets: Object.entries(action.secrets ?? {}).map(([name, value]) => ({ name, value })),
      deploy: true,
    });
    ids.push(created.id as string);
  }
  await management('PATCH', `/actions/triggers/${trigger}/bindings`, { bindings: ids.map((id) => ({ ref: { type: 'action_id', value: id } })) });
}

const newAuthorization = (extra: Record<string, string> = {}) => authorization(app, extra);
const logIn = (page: Page, email: string) => submitLogin(page, email, PASSWORD);

async function newUser(prefix: string): Promise<{ email: string; userId: string }> {
  const email = `${prefix}-${randomBytes(4).toString('hex')}@example.com`;
  const user = await management('POST', '/users', { connection: CONNECTION, email, password: PASSWORD });
  return { email, userId: user.user_id as string };
}

describe('Actions in the hosted login, in Chromium', { skip }, () => {
  test("a post-login action's namespaced claims reach openid-client's tokens", async () => {
    const { email, userId } = await newUser('claims');
    const role = await management('POST', '/roles', { name: `editor-${randomBytes(3).toString('hex')}`, description: 'Edits' });
    await management('POST', `/users/${encodeURIComponent(userId)}/roles`, { roles: [role.id] });
    await bind('post-login', [
      {
        name: 'roles-claim',
        code: `exports.onExecutePostLogin = async (event, api) => {
          api.idToken.setCustomClaim('${NS}roles', event.authorization.roles);
          api.accessToken.setCustomClaim('${NS}roles', event.authorization.roles);
          api.idToken.setCustomClaim('${NS}client', event.client.name);
        };`,
      },
    ]);
    await inScenario(browser!, 'actions claims', async (scenario) => {
      const pending = await newAuthorization({ audience });
      await scenario.page.goto(pending.url);
      await logIn(scenario.page, email);
      const tokens = await atCallback(scenario, app, pending, 'callback');
      const claims = tokens.claims()!;
      assert.equal(claims.email, email);
      assert.deepEqual(claims[`${NS}roles`], [role.name]);
      assert.equal(claims[`${NS}client`], 'Actions Browser App');
      const access = JSON.parse(Buffer.from(tokens.access_token.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
      assert.deepEqual(access[`${NS}roles`], [role.name]);
      assert.equal(access.aud instanceof Array ? access.aud[0] : access.aud, audience);
    });
  });

  test('api.redirect.sendUserTo a page of another site and back through /continue completes the login', async () => {
    const { email, userId } = await newUser('redirect');
    await bind('post-login', [
      {
        name: 'terms',
        secrets: { SITE_SECRET },
        code: `exports.onExecutePostLogin = async (event, api) => {
          if (event.user.app_metadata.terms) return;
          const token = api.redirect.encodeToken({ secret: event.secrets.SITE_SECRET, payload: { email: event.user.email } });
          api.redirect.sendUserTo('${siteServer.origin}/terms', { query: { session_token: token } });
        };
        exports.onContinuePostLogin = async (event, api) => {
          const answer = api.redirect.validateToken({ secret: event.secrets.SITE_SECRET });
          api.user.setAppMetadata('terms', answer.answer);
          api.idToken.setCustomClaim('${NS}terms', answer.answer);
        };`,
      },
    ]);
    await inScenario(browser!, 'actions redirect and continue', async (scenario) => {
      const { page } = scenario;
      const pending = await newAuthorization();
      await page.goto(pending.url);
      await logIn(page, email);
      // The login form's answer moves on to the action's page (a refresh: the form's CSP allows no redirect elsewhere).
      await page.waitForURL((url) => url.pathname === '/terms');
      const there = new URL(page.url());
      assert.equal(`${there.origin}${there.pathname}`, `${siteServer.origin}/terms`, 'the action sent the browser to its page');
      assert.ok(there.searchParams.get('state'), 'with the state');
      assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), `Accept the terms, ${email}`);
      await scenario.shot('the action page');
      await navigation(page, () => page.getByRole('button', { name: 'I agree' }).click());
      const claims = (await atCallback(scenario, app, pending, 'back at the application')).claims()!;
      assert.equal(claims.email, email);
      assert.equal(claims[`${NS}terms`], 'agreed');
      const user = await management('GET', `/users/${encodeURIComponent(userId)}`);
      assert.deepEqual(user.app_metadata, { terms: 'agreed' });

      // The same state again, from the page's history: refused, nothing resumed.
      await page.goBack();
      assert.equal(new URL(page.url()).pathname, '/terms');
      const again = await navigation(page, () => page.getByRole('button', { name: 'I agree' }).click());
      assert.equal(again?.status(), 400);
      assert.match((await page.getByRole('alert').textContent()) ?? '', /invalid_request/);
      assert.equal(new URL(page.url()).pathname, '/continue');
      await scenario.shot('a replayed continue is refused');
    });
  });

  test("api.multifactor.enable('any') makes a user without a second factor enrol OTP; the login completes with amr mfa", async () => {
    await management('PUT', '/guardian/factors/otp', { enabled: true });
    const { email } = await newUser('mfa');
    await bind('post-login', [{ name: 'mfa', code: "exports.onExecutePostLogin = async (event, api) => { api.multifactor.enable('any'); };" }]);
    await inScenario(browser!, 'actions multifactor enable', async (scenario) => {
      const { page } = scenario;
      const pending = await newAuthorization();
      await page.goto(pending.url);
      await logIn(page, email);
      assert.equal(new URL(page.url()).pathname, '/mfa');
      assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Set up two-step verification');
      await scenario.shot('enrolment asked by the action');
      const secret = ((await page.locator('#secret').textContent()) ?? '').trim();
      assert.match(secret, /^[A-Z2-7]{32}$/);
      await page.getByLabel('Code from the app', { exact: true }).fill(new TOTP({ secret: Secret.fromBase32(secret) }).generate());
      await navigation(page, () => page.getByRole('button', { name: 'Verify' }).click());
      const claims = (await atCallback(scenario, app, pending, 'enrolled: callback')).claims()!;
      assert.equal(claims.email, email);
      assert.deepEqual(claims.amr, ['mfa']);
    });
    await bind('post-login', []);
  });

  test("a pre-user-registration action refuses a signup: the page shows the action's message", async () => {
    await bind('pre-user-registration', [
      {
        name: 'work-addresses',
        code: `exports.onExecutePreUserRegistration = async (event, api) => {
          if (event.user.email.endsWith('@free-mail.example')) api.access.deny('personal address', 'Please sign up with your work address.');
        };`,
      },
    ]);
    const email = `someone-${randomBytes(3).toString('hex')}@free-mail.example`;
    await inScenario(browser!, 'actions refused signup', async (scenario) => {
      const { page } = scenario;
      const pending = await newAuthorization({ screen_hint: 'signup' });
      await page.goto(pending.url);
      assert.equal(new URL(page.url()).pathname, '/signup');
      await page.getByLabel('Email address', { exact: true }).fill(email);
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      const refused = await navigation(page, () => page.getByRole('button', { name: 'Sign up' }).click());
      assert.equal(refused?.status(), 400);
      assert.match((await page.getByRole('alert').textContent()) ?? '', /Please sign up with your work address\./);
      await scenario.shot('signup refused by the action');
    });
    const found = await management('GET', `/users-by-email?email=${encodeURIComponent(email)}`);
    assert.deepEqual(Object.values(found), [], 'no user was created');
  });
});
