/**
 * The login page's federated buttons, live in Chromium: the built server
 * over HTTPS with two social connections (Google and GitHub, played by the
 * local stand-ins of test/helpers/social-stand-ins.ts, which
 * GATEHOUSE_FEDERATION_ENDPOINTS points Gatehouse at) and an enterprise
 * `oidc` connection shown as a button, whose upstream is a real OpenID
 * provider (node-oidc-provider) with its own login page. openid-client is
 * the application (PKCE, state, nonce; the code redeemed, the ID token
 * verified).
 *
 * - the login page shows exactly the three buttons, by the providers' and
 *   the connection's names; in light and dark, screenshotted, axe finds no
 *   WCAG 2.2 AA violation;
 * - clicking "Continue with GitHub" goes to the stand-in and back: the
 *   application gets a code and openid-client the tokens of `github|{id}`;
 * - clicking "Continue with Acme Corp" goes to the OpenID provider's login
 *   page, and after it back: tokens of `oidc|acme-sso|{sub}`;
 * - home realm discovery: an email of the domain of another enterprise
 *   connection (no button, `domain_aliases`) typed on the login page, no
 *   password (the field is not required while some connection has domains),
 *   goes to its provider and back: tokens of `oidc|initech-sso|{sub}`.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import * as client from 'openid-client';
import Provider from 'oidc-provider';
import type { Browser } from 'playwright-core';
import { tempDir } from '../helpers/app.js';
import { LOOPBACK_RANGES } from '../helpers/outbound.js';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { startSocialStandIns, type SocialStandIns } from '../helpers/social-stand-ins.js';
import { axeViolations } from './support/axe.js';
import { chromiumSkipReason, inScenario, launchChromium, managementApi, startLocalServer, type LocalServer, type Scenario } from './support/chromium.js';
import { grantEverything, sharedTls } from './support/federation.js';
import { caFetch, cleanUp } from './support/https.js';
import { portalCallback } from './support/portal.js';

const skip = chromiumSkipReason();
const UPSTREAM_SECRET = 'upstream-secret-0123456789abcdef';
const BUTTONS = ['Continue with Acme Corp', 'Continue with GitHub', 'Continue with Google'];

let server: ServerProcess;
let browser: Browser | undefined;
let standIns: SocialStandIns;
let upstream: https.Server;
let issuer: string;
let portal: LocalServer;
let app: client.Configuration;
let callback: string;

interface Pending {
  url: URL;
  pkceCodeVerifier: string;
  expectedState: string;
  expectedNonce: string;
}

async function authorization(): Promise<Pending> {
  const pkceCodeVerifier = client.randomPKCECodeVerifier();
  const [expectedState, expectedNonce] = [client.randomState(), client.randomNonce()];
  const url = client.buildAuthorizationUrl(app, {
    redirect_uri: callback,
    scope: 'openid email profile',
    code_challenge: await client.calculatePKCECodeChallenge(pkceCodeVerifier),
    code_challenge_method: 'S256',
    state: expectedState,
    nonce: expectedNonce,
  });
  return { url, pkceCodeVerifier, expectedState, expectedNonce };
}

/** The login page, its federated buttons' names. */
async function openLogin(scenario: Scenario, pending: Pending): Promise<string[]> {
  await scenario.page.goto(pending.url.href);
  assert.equal(new URL(scenario.page.url()).pathname, '/login');
  return (await scenario.page.locator('button[name=connection]').allTextContents()).map((t) => t.trim()).sort();
}

/** Clicks the button, waits for the application's callback, redeems its code with openid-client: the ID token's claims. */
async function through(scenario: Scenario, pending: Pending, button: string, atProvider?: () => Promise<void>): Promise<Record<string, unknown>> {
  const { page } = scenario;
  if (atProvider) {
    await Promise.all([page.waitForURL(`${issuer}/**`), page.getByRole('button', { name: button, exact: true }).click()]);
    await atProvider();
  } else {
    await Promise.all([page.waitForURL(`${callback}?**`), page.getByRole('button', { name: button, exact: true }).click()]);
  }
  await page.waitForURL(`${callback}?**`);
  await scenario.shot(`${button} back at the application`);
  const tokens = await client.authorizationCodeGrant(app, new URL(page.url()), pending);
  assert.ok(tokens.access_token);
  return tokens.claims() as Record<string, unknown>;
}

before(async () => {
  if (skip) return;
  const dataDir = tempDir('gatehouse-e2e-federated-buttons-');
  const { tls, certFile } = await sharedTls(dataDir, ['localhost', '127.0.0.1', '::1']);
  standIns = await startSocialStandIns(tls);
  let provider: Provider | undefined;
  upstream = https.createServer(tls, (req, res) => (provider ? provider.callback()(req, res) : res.end()));
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  issuer = `https://localhost:${(upstream.address() as AddressInfo).port}`;
  const endpointsFile = path.join(dataDir, 'federation-endpoints.json');
  fs.writeFileSync(endpointsFile, JSON.stringify({ 'google-oauth2': standIns.endpoints['google-oauth2'], github: standIns.endpoints.github }));
  server = await startServerProcess({ dataDir, env: { NODE_EXTRA_CA_CERTS: certFile, GATEHOUSE_OUTBOUND_ALLOW: LOOPBACK_RANGES, GATEHOUSE_FEDERATION_ENDPOINTS: endpointsFile } });
  const ca = fs.readFileSync(server.certFile);
  provider = new Provider(issuer, {
    clients: [{ client_id: 'gatehouse', client_secret: UPSTREAM_SECRET, redirect_uris: [`${server.baseUrl}/login/callback`], response_types: ['code'], grant_types: ['authorization_code'], token_endpoint_auth_method: 'client_secret_post' }],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub, email: `${sub}@acme.example`, email_verified: true, name: `${sub} of Acme` }) }),
    loadExistingGrant: grantEverything,
    cookies: { keys: ['upstream-cookie-key-for-tests'] },
    conformIdTokenClaims: false,
  });
  browser = await launchChromium();
  portal = await startLocalServer(portalCallback, { cert: ca, key: tls.key });
  callback = `${portal.origin}/callback`;
  const management = await managementApi(server);
  const created = (await management('POST', '/clients', { name: 'Portal', app_type: 'regular_web', is_first_party: true, token_endpoint_auth_method: 'client_secret_basic', callbacks: [callback], grant_types: ['authorization_code'] })) as { client_id: string; client_secret: string };
  app = await client.discovery(new URL(server.baseUrl), created.client_id, created.client_secret, client.ClientSecretBasic(created.client_secret), { [client.customFetch]: caFetch(ca) });
  const enabled_clients = [created.client_id];
  standIns.clients.google = { client_id: 'google-client', client_secret: 'google-secret' };
  standIns.clients.github = { client_id: 'github-client', client_secret: 'github-secret' };
  await management('POST', '/connections', { name: 'Username-Password-Authentication', strategy: 'auth0', enabled_clients });
  await management('POST', '/connections', { name: 'google-oauth2', strategy: 'google-oauth2', enabled_clients, options: { client_id: 'google-client', client_secret: 'google-secret' } });
  await management('POST', '/connections', { name: 'github', strategy: 'github', enabled_clients, options: { client_id: 'github-client', client_secret: 'github-secret', email: true } });
  await management('POST', '/connections', {
    name: 'acme-sso',
    display_name: 'Acme Corp',
    strategy: 'oidc',
    show_as_button: true,
    enabled_clients,
    options: { client_id: 'gatehouse', client_secret: UPSTREAM_SECRET, type: 'back_channel', discovery_url: `${issuer}/.well-known/openid-configuration` },
  });
  await management('POST', '/connections', {
    name: 'initech-sso',
    strategy: 'oidc',
    enabled_clients,
    options: { client_id: 'gatehouse', client_secret: UPSTREAM_SECRET, type: 'back_channel', discovery_url: `${issuer}/.well-known/openid-configuration`, domain_aliases: ['initech.example'] },
  });
});

after(async () => {
  await browser?.close();
  await portal?.close();
  await standIns?.close();
  upstream?.closeAllConnections();
  await new Promise((resolve) => (upstream ? upstream.close(resolve) : resolve(undefined)));
  await cleanUp(server ? [server] : [], server ? [server.dataDir] : []);
});

describe('federated buttons on the login page, live in Chromium', { skip }, () => {
  test('two social buttons and an enterprise one, light and dark, axe clean; GitHub\'s leads to the provider and back, openid-client gets the tokens', async () => {
    await inScenario(browser!, 'federated login buttons github', async (scenario) => {
      const pending = await authorization();
      assert.deepEqual(await openLogin(scenario, pending), BUTTONS);
      for (const colorScheme of ['light', 'dark'] as const) {
        await scenario.page.emulateMedia({ colorScheme });
        await scenario.shot(`login with federated buttons ${colorScheme}`);
        const violations = await axeViolations(scenario.page);
        assert.deepEqual(violations, [], `${colorScheme}: ${JSON.stringify(violations, null, 1)}`);
      }
      await scenario.page.emulateMedia({ colorScheme: 'light' });
      standIns.next.github = { id: '583231', login: 'octocat', name: 'The Octocat', emails: [{ email: 'octocat@social.example', primary: true, verified: true, visibility: 'public' }] };
      const claims = await through(scenario, pending, 'Continue with GitHub');
      assert.equal(claims.sub, 'github|583231');
      assert.equal(claims.email, 'octocat@social.example');
      assert.equal(claims.nonce, pending.expectedNonce);
      assert.equal(standIns.seen.authorize.filter((a) => a.provider === 'github').length, 1, 'the stand-in was asked once');
    });
  });

  test('the enterprise button leads to the OpenID provider\'s login page and back: tokens of oidc|acme-sso|{sub}', async () => {
    await inScenario(browser!, 'federated login buttons enterprise', async (scenario) => {
      const pending = await authorization();
      assert.deepEqual(await openLogin(scenario, pending), BUTTONS);
      const claims = await through(scenario, pending, 'Continue with Acme Corp', async () => {
        await scenario.shot('the OpenID provider login page');
        await scenario.page.locator('input[name=login]').fill('ada');
        await scenario.page.locator('input[name=password]').fill('anything');
        await scenario.page.locator('button[type=submit]').click();
      });
      assert.equal(claims.sub, 'oidc|acme-sso|ada');
      assert.equal(claims.email, 'ada@acme.example');
      assert.equal(claims.name, 'ada of Acme');
    });
  });
});

describe('home realm discovery, live in Chromium', { skip }, () => {
  test('an email of an enterprise connection\'s domain, no password: its provider, then the application with the tokens of oidc|initech-sso|{sub}', async () => {
    await inScenario(browser!, 'federated login home realm discovery', async (scenario) => {
      const pending = await authorization();
      assert.deepEqual(await openLogin(scenario, pending), BUTTONS, 'initech-sso has no button');
      assert.equal(await scenario.page.locator('#password').getAttribute('required'), null, 'the password is not required while a connection has domains');
      await scenario.page.getByLabel('Email address', { exact: true }).fill('peter@initech.example');
      await scenario.shot('an email of initech.example typed');
      const claims = await through(scenario, pending, 'Log in', async () => {
        await scenario.page.locator('input[name=login]').fill('peter');
        await scenario.page.locator('input[name=password]').fill('anything');
        await scenario.page.locator('button[type=submit]').click();
      });
      assert.equal(claims.sub, 'oidc|initech-sso|peter');
    });
  });
});
