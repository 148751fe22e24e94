/**
 * auth0-spa-js, the service's own SDK for single-page applications, in a real
 * browser (Debian's Chromium through playwright-core, ./support/chromium.ts)
 * against the built server over HTTPS, unchanged but for the domain:
 *
 * - loginWithRedirect → the hosted login page → handleRedirectCallback (the
 *   code exchanged with PKCE by a cross-origin POST /oauth/token) → getUser;
 * - getTokenSilently with `cacheMode: 'off'`: a hidden iframe loads
 *   /authorize with `prompt=none` and `response_mode=web_message`, and the
 *   page answers with postMessage to the SPA's origin
 *   (src/authentication/authorize/response-modes.ts);
 * - with an API audience, a JWT access token for that API;
 * - logout to the SPA, after which silent authentication answers
 *   login_required;
 * - `useRefreshTokens: true`: getTokenSilently refreshes with POST
 *   /oauth/token from the SPA's origin (CORS by the client's web origins,
 *   src/authentication/cors.ts), with no iframe.
 *
 * Chromium blocks third-party cookies (SameSite=None or not): in an iframe
 * of another site the SSO cookie is not sent, and silent authentication can
 * only answer login_required, as on the service in such browsers. So the
 * iframe scenario's SPA is on the tenant's site, `https://localhost:PORT`
 * (the deployment the service recommends: a custom domain on the
 * application's site), and still another origin, so postMessage, the
 * page's frame-ancestors and the Allowed Web Origins are all exercised; the
 * refresh-token scenario, which needs no cookie, runs on another site,
 * `http://127.0.0.1:PORT`.
 *
 * The SPA (./support/spa/) is served by a node server with the library's
 * browser bundle from node_modules (no CDN). Every step's page is saved under
 * test-output/screenshots/<scenario>/.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createRemoteJWKSet, customFetch, jwtVerify } from 'jose';
import type { Browser, Page, Request } from 'playwright-core';
import { ROOT, startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { callPage, chromiumSkipReason, inScenario, launchChromium, managementApi, startLocalServer, type LocalServer, type ManagementApi, type Outcome, outcomeValue, type Scenario } from './support/chromium.js';
import { caFetch, cleanUp } from './support/https.js';

const PASSWORD = 'Sunny-Meadow-42';
const API_SCOPE = 'read:reports';
const CONNECTION = 'spa-users';
const SPA_DIR = path.join(ROOT, 'test/e2e/support/spa');
const LIBRARY = path.join(ROOT, 'node_modules/@auth0/auth0-spa-js/dist/auth0-spa-js.production.js');
/** Seconds auth0-spa-js waits for the silent-authentication iframe (its default is 60): a blocked iframe fails the step sooner. */
const IFRAME_TIMEOUT_SECONDS = 10;


interface TokenResponse {
  access_token: string;
  id_token: string;
  expires_in: number;
  scope?: string;
}

const skip = chromiumSkipReason();
let server: ServerProcess;
/** The SPA on the tenant's site (`https://localhost:PORT`), and on another site (`http://127.0.0.1:PORT`). */
let sameSiteSpa: LocalServer;
let crossSiteSpa: LocalServer;
let api: string;
let management: ManagementApi;
let clientId: string;
let browser: Browser | undefined;
let jwks: ReturnType<typeof createRemoteJWKSet>;

const FILES: Readonly<Record<string, { file: string; type: string }>> = {
  '/': { file: path.join(SPA_DIR, 'index.html'), type: 'text/html; charset=utf-8' },
  '/app.js': { file: path.join(SPA_DIR, 'app.js'), type: 'text/javascript; charset=utf-8' },
  '/auth0-spa-js.production.js': { file: LIBRARY, type: 'text/javascript; charset=utf-8' },
};

/** The SPA's static files; `/` with any query (the callback) is the page itself. */
const serveSpa: Parameters<typeof startLocalServer>[0] = (req, res) => {
  const pathname = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
  if (pathname === '/favicon.ico') {
    res.writeHead(204).end();
    return;
  }
  const served = FILES[pathname];
  if (!served) {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    return;
  }
  res.writeHead(200, { 'content-type': served.type, 'cache-control': 'no-store' });
  res.end(fs.readFileSync(served.file));
};

const newEmail = (who: string) => `${who}-${randomBytes(4).toString('hex')}@example.com`;

async function createUser(email: string): Promise<string> {
  return (await management('POST', '/users', { connection: CONNECTION, email, password: PASSWORD })).user_id as string;
}

before(async () => {
  if (skip) return;
  // One after the other: whichever fails, the one already started is there for after() to stop.
  server = await startServerProcess();
  browser = await launchChromium();
  const tls = { cert: fs.readFileSync(server.certFile), key: fs.readFileSync(path.join(server.dataDir, 'tls', 'key.pem')) };
  [sameSiteSpa, crossSiteSpa] = await Promise.all([startLocalServer(serveSpa, tls), startLocalServer(serveSpa)]);
  const origins = [sameSiteSpa.origin, crossSiteSpa.origin];
  api = `https://spa-api-${randomBytes(4).toString('hex')}.example.com/`;
  jwks = createRemoteJWKSet(new URL(`${server.baseUrl}/.well-known/jwks.json`), { [customFetch]: caFetch(fs.readFileSync(server.certFile)) });
  management = await managementApi(server);
  await management('POST', '/resource-servers', { identifier: api, name: 'SPA API', allow_offline_access: true, scopes: [{ value: API_SCOPE, description: 'Read reports' }] });
  const connection = await management('POST', '/connections', { name: CONNECTION, strategy: 'auth0' });
  const created = await management('POST', '/clients', {
    name: 'Browser SPA',
    app_type: 'spa',
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code', 'refresh_token'],
    callbacks: origins.map((origin) => `${origin}/`),
    allowed_logout_urls: origins.map((origin) => `${origin}/`),
    web_origins: origins,
    is_first_party: true,
    refresh_token: {
      rotation_type: 'rotating',
      expiration_type: 'expiring',
      leeway: 0,
      token_lifetime: 86_400,
      idle_token_lifetime: 3600,
      infinite_token_lifetime: false,
      infinite_idle_token_lifetime: false,
    },
  });
  clientId = created.client_id as string;
  await management('PATCH', `/connections/${connection.id as string}/clients`, [{ client_id: clientId, status: true }]);
});

after(async () => {
  await browser?.close();
  await sameSiteSpa?.close();
  await crossSiteSpa?.close();
  await cleanUp(server ? [server] : [], server ? [server.dataDir] : []);
});

/** Calls `window.spa[method](arg)` in the page. */
const call = <T = unknown>(page: Page, method: string, arg?: unknown): Promise<Outcome<T>> => callPage<T>(page, 'spa', method, arg);
const value = outcomeValue;

/** The options of createAuth0Client, as the SPA at `home` passes them. */
function clientOptions(home: string, extra: { useRefreshTokens?: boolean; authorizationParams?: Record<string, string> } = {}) {
  return {
    domain: server.domain,
    clientId,
    authorizeTimeoutInSeconds: IFRAME_TIMEOUT_SECONDS,
    ...(extra.useRefreshTokens && { useRefreshTokens: true }),
    authorizationParams: { redirect_uri: home, ...extra.authorizationParams },
  };
}

type ClientOptions = ReturnType<typeof clientOptions>;
const homeOf = (options: ClientOptions) => options.authorizationParams.redirect_uri;

/** The /authorize requests of hidden iframes, recorded from now on. */
function iframeAuthorizations(scenario: Scenario): Request[] {
  const seen: Request[] = [];
  scenario.context.on('request', (request) => {
    if (!request.isNavigationRequest() || !request.url().startsWith(`${server.baseUrl}/authorize?`)) return;
    if (request.frame().parentFrame() !== null) seen.push(request);
  });
  return seen;
}

/** The SPA's page loaded and its client created with `options`. */
async function openSpa(scenario: Scenario, options: ClientOptions): Promise<void> {
  const { page } = scenario;
  if (page.url() !== homeOf(options)) await page.goto(homeOf(options));
  value(await call(page, 'create', options), 'createAuth0Client');
}

/** loginWithRedirect → the hosted login page → back on the SPA, where handleRedirectCallback exchanges the code. */
async function logIn(scenario: Scenario, options: ClientOptions, email: string): Promise<void> {
  const { page } = scenario;
  const home = homeOf(options);
  await openSpa(scenario, options);
  await scenario.shot('spa before login');
  const toLogin = page.waitForURL((url) => url.origin === server.baseUrl && url.pathname === '/login');
  // Not awaited: the call ends in a navigation to /authorize.
  void call(page, 'loginWithRedirect').catch(() => undefined);
  await toLogin;
  const authorize = new URL(page.url());
  assert.equal(authorize.origin, server.baseUrl);
  await scenario.shot('hosted login page');

  await page.getByLabel('Email address', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await Promise.all([page.waitForURL((url) => url.href.startsWith(home)), page.getByRole('button', { name: 'Log in' }).click()]);
  const callback = new URL(page.url());
  assert.equal(callback.pathname, '/');
  assert.match(callback.searchParams.get('code') ?? '', /^[A-Za-z0-9_-]{16,}$/, `a code on the SPA's callback: ${page.url()}`);
  await page.waitForLoadState('load');
  await scenario.shot('back on the spa with a code');

  value(await call(page, 'create', options), 'createAuth0Client after the redirect');
  value(await call(page, 'handleRedirectCallback'), 'handleRedirectCallback');
  assert.equal(page.url(), home);
  await scenario.shot('handleRedirectCallback');
}

/** The claims of an access token for the API, its signature checked against the tenant's JWKS. */
async function apiClaims(token: string) {
  const { payload } = await jwtVerify(token, jwks, { issuer: `${server.baseUrl}/`, audience: api, algorithms: ['RS256'] });
  return payload;
}

describe('auth0-spa-js in Chromium', { skip }, () => {
  test("an SPA on the tenant's site: loginWithRedirect, handleRedirectCallback, getUser; getTokenSilently through the web_message iframe, with and without an API; logout ends it", async () => {
    await inScenario(browser!, 'spa login silent auth logout', async (scenario) => {
      const { page } = scenario;
      const email = newEmail('spa');
      const userId = await createUser(email);
      const options = clientOptions(`${sameSiteSpa.origin}/`);
      const home = homeOf(options);
      const iframes = iframeAuthorizations(scenario);
      await logIn(scenario, options, email);

      const user = value(await call<{ email: string; sub: string }>(page, 'getUser'), 'getUser');
      assert.equal(user.email, email);
      assert.equal(user.sub, userId);
      await page.getByText(email).first().waitFor();
      await scenario.shot('getUser');

      const silent = value(await call<TokenResponse>(page, 'getTokenSilently', { cacheMode: 'off', detailedResponse: true }), 'getTokenSilently through the iframe');
      assert.equal(typeof silent.access_token, 'string');
      assert.ok(silent.access_token.length > 0);
      await scenario.shot('getTokenSilently');
      assert.equal(iframes.length, 1, 'one hidden iframe loaded /authorize');
      const asked = new URL(iframes[0]!.url()).searchParams;
      assert.equal(asked.get('prompt'), 'none');
      assert.equal(asked.get('response_mode'), 'web_message');
      assert.equal(asked.get('redirect_uri'), home);

      const forApi = value(
        await call<TokenResponse>(page, 'getTokenSilently', { cacheMode: 'off', detailedResponse: true, authorizationParams: { audience: api, scope: `openid profile email ${API_SCOPE}` } }),
        'getTokenSilently for the API',
      );
      const claims = await apiClaims(forApi.access_token);
      assert.equal(claims.sub, userId);
      assert.equal(claims.azp, clientId);
      assert.ok(String(claims.scope).split(' ').includes(API_SCOPE));
      assert.equal(iframes.length, 2, 'through the iframe again');
      await scenario.shot('getTokenSilently for the api');

      await Promise.all([page.waitForURL((url) => url.href === home), call(page, 'logout', { logoutParams: { returnTo: home } }).catch(() => undefined)]);
      await page.waitForLoadState('load');
      await scenario.shot('logged out: back on the spa');
      assert.equal((await scenario.context.cookies(server.baseUrl)).find((c) => c.name === '__Host-gh_session'), undefined, 'the SSO cookie is gone');

      await openSpa(scenario, options);
      const after = await call(page, 'getTokenSilently', { cacheMode: 'off' });
      assert.ok(!after.ok, 'no token after logout');
      assert.equal(after.error, 'login_required', JSON.stringify(after));
      assert.equal(iframes.length, 3, 'the iframe asked and was told login_required');
      await scenario.shot('getTokenSilently after logout: login_required');
    });
  });

  test('an SPA on another site with useRefreshTokens: getTokenSilently refreshes with POST /oauth/token from its origin, no iframe', async () => {
    await inScenario(browser!, 'spa refresh tokens', async (scenario) => {
      const { page } = scenario;
      const email = newEmail('spa-refresh');
      const userId = await createUser(email);
      const spa = crossSiteSpa.origin;
      const options = clientOptions(`${spa}/`, { useRefreshTokens: true, authorizationParams: { audience: api, scope: `openid profile email offline_access ${API_SCOPE}` } });
      const iframes = iframeAuthorizations(scenario);
      const refreshes: Request[] = [];
      scenario.context.on('request', (request) => {
        if (request.method() === 'POST' && request.url() === `${server.baseUrl}/oauth/token` && /refresh_token/.test(request.postData() ?? '')) refreshes.push(request);
      });
      await logIn(scenario, options, email);

      for (const round of [1, 2]) {
        const refreshed = value(await call<TokenResponse>(page, 'getTokenSilently', { cacheMode: 'off', detailedResponse: true }), `refresh ${round}`);
        assert.equal((await apiClaims(refreshed.access_token)).sub, userId);
        await scenario.shot(`getTokenSilently with a refresh token ${round}`);
      }
      assert.equal(iframes.length, 0, 'no iframe: the refresh token did it');
      assert.equal(refreshes.length, 2, 'two refresh token grants');
      for (const request of refreshes) {
        assert.equal(await request.headerValue('origin'), spa);
        const response = await request.response();
        assert.equal(response?.status(), 200);
        assert.equal(await response?.headerValue('access-control-allow-origin'), spa);
      }
    });
  });
});
