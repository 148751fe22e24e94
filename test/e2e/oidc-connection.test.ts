/**
 * An OpenID Connect connection end to end: the built server over HTTPS, a
 * real OpenID provider (node-oidc-provider) started here over HTTPS as the
 * upstream, and Chromium. Gatehouse trusts the upstream's certificate through
 * NODE_EXTRA_CA_CERTS (read by Node at process start; both serve the same
 * certificate for localhost, made before the server starts) and reaches it on
 * the loopback interface because GATEHOUSE_OUTBOUND_ALLOW lists it.
 *
 * - back_channel (code, PKCE S256, client_secret_post) and front_channel
 *   (id_token by form_post): /authorize?connection= → the provider's login →
 *   /login/callback → the application's callback with a code → an ID token
 *   of `oidc|{connection}|{sub}`; the user and its identity read back;
 * - a database user with the same verified email stays another user (no
 *   linking or login by email);
 * - refusals: the upstream's access_denied reaches the application as
 *   access_denied with its state; a callback without state, with an unknown
 *   state, or a replayed one is an error page, and no code reaches the app.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import Provider from 'oidc-provider';
import type { Browser } from 'playwright-core';
import { tempDir } from '../helpers/app.js';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { LOOPBACK_RANGES } from '../helpers/outbound.js';
import { chromiumSkipReason, inScenario, launchChromium, managementApi, startLocalServer, type LocalServer, type ManagementApi } from './support/chromium.js';
import { cleanUp, httpsRequest } from './support/https.js';
import { portalCallback, portalIdToken } from './support/portal.js';
import { grantEverything, sharedTls } from './support/federation.js';

const skip = chromiumSkipReason();
let server: ServerProcess;
let ca: Buffer;
let management: ManagementApi;
let browser: Browser | undefined;
let upstream: https.Server;
let issuer: string;
let appServer: LocalServer;
let client: { client_id: string; client_secret: string };
let callback: string;
let databaseUser: { user_id: string };

const application = portalCallback;
const idTokenFor = (code: string) => portalIdToken(server, ca, client, callback, code);

const authorizeUrl = (connection: string, state: string) =>
  `${server.baseUrl}/authorize?${new URLSearchParams({ client_id: client.client_id, response_type: 'code', redirect_uri: callback, scope: 'openid email profile', connection, state })}`;

before(async () => {
  if (skip) return;
  const dataDir = tempDir('gatehouse-e2e-oidc-');
  const { tls, certFile } = await sharedTls(dataDir, ['localhost', '127.0.0.1', '::1']);

  // The upstream listens first: its issuer names its port.
  let provider: Provider | undefined;
  upstream = https.createServer(tls, (req, res) => (provider ? provider.callback()(req, res) : res.end()));
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  issuer = `https://localhost:${(upstream.address() as AddressInfo).port}`;

  server = await startServerProcess({ dataDir, env: { NODE_EXTRA_CA_CERTS: certFile, GATEHOUSE_OUTBOUND_ALLOW: LOOPBACK_RANGES } });
  ca = fs.readFileSync(server.certFile);
  provider = new Provider(issuer, {
    clients: [
      {
        client_id: 'gatehouse',
        client_secret: 'upstream-secret-0123456789',
        redirect_uris: [`${server.baseUrl}/login/callback`],
        response_types: ['code', 'id_token'],
        grant_types: ['authorization_code', 'implicit'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'given_name', 'family_name'] },
    findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub, email: `${sub}@upstream.example`, email_verified: true, name: `${sub} Upstream`, given_name: sub }) }),
    // No consent page at the upstream: every login has its grant.
    loadExistingGrant: grantEverything,
    cookies: { keys: ['upstream-cookie-key-for-tests'] },
    // The profile claims in the id_token of the code flow too (Gatehouse reads the id_token, as the service does).
    conformIdTokenClaims: false,
  });
  // node-oidc-provider refuses localhost redirect URIs for implicit (id_token) clients; its invalidate
  // hook takes a code so that a test setup can allow that one rule (Gatehouse's tenant is at localhost).
  const schema = provider.Client.Schema.prototype;
  const invalidate = schema.invalidate;
  schema.invalidate = function (this: unknown, message: string, code?: string) {
    if (code !== 'implicit-forbid-localhost') invalidate.call(this, message, code);
  };
  browser = await launchChromium();
  appServer = await startLocalServer(application, { cert: ca, key: tls.key });
  callback = `${appServer.origin}/callback`;
  management = await managementApi(server);
  client = (await management('POST', '/clients', {
    name: 'Portal',
    app_type: 'regular_web',
    is_first_party: true,
    token_endpoint_auth_method: 'client_secret_post',
    callbacks: [callback],
    grant_types: ['authorization_code'],
  })) as unknown as typeof client;
  // A database user with the email the upstream will give Ada: the federated login must not become this user.
  await management('POST', '/connections', { name: 'Username-Password-Authentication', strategy: 'auth0', enabled_clients: [client.client_id] });
  databaseUser = (await management('POST', '/users', { connection: 'Username-Password-Authentication', email: 'ada@upstream.example', password: 'Correct-Horse-Battery-9', email_verified: true })) as { user_id: string };
  for (const [name, type] of [['upstream-code', 'back_channel'], ['upstream-form', 'front_channel']]) {
    await management('POST', '/connections', {
      name,
      strategy: 'oidc',
      enabled_clients: [client.client_id],
      options: { client_id: 'gatehouse', client_secret: 'upstream-secret-0123456789', type, discovery_url: `${issuer}/.well-known/openid-configuration`, scope: 'openid email profile' },
    });
  }
});

after(async () => {
  await browser?.close();
  await appServer?.close();
  upstream?.closeAllConnections();
  await new Promise((resolve) => (upstream ? upstream.close(resolve) : resolve(undefined)));
  await cleanUp(server ? [server] : [], server ? [server.dataDir] : []);
});

describe('OpenID Connect connection to a real OpenID provider, in Chromium', { skip }, () => {
  test('create read back: oidc_metadata from discovery, client_secret returned', async () => {
    const [connection] = (await management('GET', '/connections?name=upstream-code')) as unknown as { options: Record<string, unknown> }[];
    assert.equal((connection!.options.oidc_metadata as { issuer: string }).issuer, issuer);
    assert.equal(connection!.options.client_secret, 'upstream-secret-0123456789');
  });

  for (const [connection, sub] of [['upstream-code', 'ada'], ['upstream-form', 'grace']] as const) {
    test(`${connection}: /authorize?connection= → the provider → /login/callback → a code → an ID token of oidc|${connection}|${sub}`, async () => {
      await inScenario(browser!, `oidc ${connection} login`, async (scenario) => {
        const { page } = scenario;
        const seen: string[] = [];
        page.on('request', (r) => seen.push(r.url()));
        await page.goto(authorizeUrl(connection, `st-${sub}`));
        assert.equal(new URL(page.url()).origin, issuer, `at the provider, not ${page.url()}`);
        await page.locator('input[name=login]').fill(sub);
        await page.locator('input[name=password]').fill('anything');
        await Promise.all([page.waitForURL(`${callback}?**`), page.locator('button[type=submit]').click()]);
        const url = new URL(page.url());
        assert.equal(url.searchParams.get('state'), `st-${sub}`);
        const upstreamAuthorize = new URL(seen.find((u) => u.startsWith(`${issuer}/auth`))!);
        assert.ok(upstreamAuthorize.searchParams.get('state')!.length > 40);
        if (connection === 'upstream-code') {
          assert.equal(upstreamAuthorize.searchParams.get('code_challenge_method'), 'S256');
          assert.equal(upstreamAuthorize.searchParams.get('response_type'), 'code');
        } else {
          assert.equal(upstreamAuthorize.searchParams.get('response_mode'), 'form_post');
          assert.ok(upstreamAuthorize.searchParams.get('nonce'));
        }
        const claims = await idTokenFor(url.searchParams.get('code')!);
        assert.equal(claims.sub, `oidc|${connection}|${sub}`);
        assert.equal(claims.email, `${sub}@upstream.example`);
        const user = await management('GET', `/users/${encodeURIComponent(`oidc|${connection}|${sub}`)}`);
        // The upstream's tokens (the code flow's) are shown to this token, which has read:user_idp_tokens.
        const [{ access_token, ...identity }] = user.identities as [{ access_token?: string }];
        assert.deepEqual([identity], [{ connection, user_id: `${connection}|${sub}`, provider: 'oidc', isSocial: false }]);
        assert.equal(typeof access_token, connection === 'upstream-code' ? 'string' : 'undefined');
        assert.equal(user.name, `${sub} Upstream`);
        if (sub === 'ada') {
          // Never linked or logged in by email: the database user with the same verified email is another user, untouched.
          const sameEmail = (await management('GET', `/users-by-email?email=${encodeURIComponent('ada@upstream.example')}`)) as unknown as { user_id: string; logins_count?: number }[];
          assert.deepEqual(sameEmail.map((u) => u.user_id).sort(), [databaseUser.user_id, 'oidc|upstream-code|ada'].sort());
          assert.ok(!sameEmail.find((u) => u.user_id === databaseUser.user_id)!.logins_count);
        }
      });
    });
  }

  test('the upstream refuses (access_denied): the application gets access_denied with its state, and no code', async () => {
    await inScenario(browser!, 'oidc upstream access denied', async (scenario) => {
      const { page } = scenario;
      await page.goto(authorizeUrl('upstream-code', 'st-denied'));
      const interaction = new URL(page.url());
      assert.equal(interaction.origin, issuer);
      await Promise.all([page.waitForURL(`${callback}?**`), page.goto(`${issuer}${interaction.pathname}/abort`)]);
      const url = new URL(page.url());
      assert.equal(url.searchParams.get('error'), 'access_denied');
      assert.equal(url.searchParams.get('error_description'), 'User did not authorize the request');
      assert.equal(url.searchParams.get('state'), 'st-denied');
      assert.equal(url.searchParams.get('code'), null);
    });
  });

  test('a callback without state, with an unknown state, or replayed is an error page, and no code reaches the application', async () => {
    await inScenario(browser!, 'oidc callback state refusals', async (scenario) => {
      const { page } = scenario;
      let upstreamCallback: string | undefined;
      page.on('request', (r) => {
        if (r.url().startsWith(`${server.baseUrl}/login/callback?`) && new URL(r.url()).searchParams.has('code')) upstreamCallback = r.url();
      });
      await page.goto(authorizeUrl('upstream-code', 'st-replay'));
      await page.locator('input[name=login]').fill('ada');
      await page.locator('input[name=password]').fill('anything');
      await Promise.all([page.waitForURL(`${callback}?**`), page.locator('button[type=submit]').click()]);
      assert.ok(upstreamCallback);
      const replay = await httpsRequest(upstreamCallback, { ca, method: 'GET' });
      assert.equal(replay.status, 400);
      assert.match(replay.text, /already used/);
      assert.equal(replay.headers.location, undefined);
      const forged = new URL(upstreamCallback);
      forged.searchParams.set('state', `${forged.searchParams.get('state')!.slice(0, -4)}AAAA`);
      const unknown = await httpsRequest(forged.href, { ca, method: 'GET' });
      assert.equal(unknown.status, 400);
      assert.match(unknown.text, /unknown or expired/);
      forged.searchParams.delete('state');
      const missing = await httpsRequest(forged.href, { ca, method: 'GET' });
      assert.equal(missing.status, 400);
      assert.match(missing.text, /no state/);
      assert.equal(missing.headers['set-cookie'], undefined);
    });
  });
});
