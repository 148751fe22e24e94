/**
 * SCIM provisioning end to end: the built server over HTTPS, the `auth0`
 * SDK configuring a connection's SCIM and issuing its token, SCIM requests
 * over HTTPS (shaped as Okta and Entra ID send them: no SCIM client library
 * is in the npm registry, test/fixtures/scim-requests.ts), a real OpenID
 * provider (node-oidc-provider) upstream of an oidc connection, and
 * Chromium:
 *
 * - a user provisioned through SCIM before their first login logs in
 *   through the connection as that same user (`oidc|{connection}|{sub}`,
 *   with `externalId` the upstream's `sub`), keeping what the mapping set;
 * - deactivated through SCIM (Entra ID's `"active": "False"`), their next
 *   login through the connection is refused.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import Provider from 'oidc-provider';
import type { Browser } from 'playwright-core';
import { createTlsCertificate } from '../../src/platform/crypto/certificates.js';
import { ENTRA } from '../fixtures/scim-requests.js';
import { tempDir } from '../helpers/app.js';
import { ROOT, startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { LOOPBACK_RANGES } from '../helpers/outbound.js';
import { chromiumSkipReason, inScenario, launchChromium, managementApi, startLocalServer, type LocalServer, type ManagementApi } from './support/chromium.js';
import { cleanUp, httpsRequest, runNode } from './support/https.js';
import { portalCallback, portalIdToken } from './support/portal.js';

const skip = chromiumSkipReason();
const CONNECTION = 'corp-oidc';
let server: ServerProcess;
let ca: Buffer;
let management: ManagementApi;
let browser: Browser | undefined;
let upstream: https.Server;
let appServer: LocalServer;
let client: { client_id: string; client_secret: string };
let callback: string;
let connectionId: string;
let sdk: Record<string, any>;

before(async () => {
  if (skip) return;
  const dataDir = tempDir('gatehouse-e2e-scim-');
  const tlsDir = path.join(dataDir, 'tls');
  fs.mkdirSync(tlsDir, { recursive: true, mode: 0o700 });
  const material = await createTlsCertificate(['localhost', '127.0.0.1', '::1']);
  fs.writeFileSync(path.join(tlsDir, 'key.pem'), material.keyPem, { mode: 0o600 });
  fs.writeFileSync(path.join(tlsDir, 'cert.pem'), material.certPem);
  let provider: Provider | undefined;
  upstream = https.createServer({ cert: material.certPem, key: material.keyPem }, (req, res) => (provider ? provider.callback()(req, res) : res.end()));
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const issuer = `https://localhost:${(upstream.address() as AddressInfo).port}`;
  server = await startServerProcess({ dataDir, env: { NODE_EXTRA_CA_CERTS: path.join(tlsDir, 'cert.pem'), GATEHOUSE_OUTBOUND_ALLOW: LOOPBACK_RANGES } });
  ca = fs.readFileSync(server.certFile);
  provider = new Provider(issuer, {
    clients: [{ client_id: 'gatehouse', client_secret: 'upstream-secret-0123456789', redirect_uris: [`${server.baseUrl}/login/callback`], token_endpoint_auth_method: 'client_secret_post' }],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub, email: `${sub}@corp.example`, email_verified: true, name: `${sub} Corp` }) }),
    loadExistingGrant: async (ctx) => {
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client!.clientId, accountId: ctx.oidc.session!.accountId! });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
    cookies: { keys: ['upstream-cookie-key-for-scim-tests'] },
    conformIdTokenClaims: false,
  });
  browser = await launchChromium();
  appServer = await startLocalServer(portalCallback, { cert: ca, key: fs.readFileSync(path.join(tlsDir, 'key.pem')) });
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
  const connection = await management('POST', '/connections', {
    name: CONNECTION,
    strategy: 'oidc',
    enabled_clients: [client.client_id],
    options: { client_id: 'gatehouse', client_secret: 'upstream-secret-0123456789', type: 'back_channel', discovery_url: `${issuer}/.well-known/openid-configuration`, scope: 'openid email profile' },
  });
  connectionId = connection.id as string;
  const admin = server.admin();
  const run = await runNode(
    ['--import', 'tsx', path.join(ROOT, 'test/e2e/clients/auth0-sdk-scim.ts'), JSON.stringify({ domain: server.domain, clientId: admin.client_id, clientSecret: admin.client_secret, connectionId })],
    { env: { ...process.env, NODE_EXTRA_CA_CERTS: server.certFile }, timeoutMs: 120_000 },
  );
  assert.equal(run.code, 0, `SDK run failed:\n${run.stderr}\n${server.output().slice(-3000)}`);
  sdk = JSON.parse(run.stdout) as Record<string, any>;
});

after(async () => {
  await browser?.close();
  await appServer?.close();
  upstream?.closeAllConnections();
  await new Promise((resolve) => (upstream ? upstream.close(resolve) : resolve(undefined)));
  await cleanUp(server ? [server] : [], server ? [server.dataDir] : []);
});

const scim = (method: string, resource: string, body?: unknown) =>
  httpsRequest(`${server.baseUrl}/scim/v2/connections/${connectionId}${resource}`, {
    ca,
    method,
    headers: { authorization: `Bearer ${sdk.token.token}`, ...(body !== undefined && { 'content-type': 'application/scim+json' }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });

/** Logs `sub` in at the upstream through the connection; the URL the browser ends at and its text. */
async function loginThroughConnection(sub: string, state: string): Promise<{ url: URL; text: string }> {
  let result: { url: URL; text: string } | undefined;
  await inScenario(browser!, `scim ${state}`, async ({ page }) => {
    await page.goto(`${server.baseUrl}/authorize?${new URLSearchParams({ client_id: client.client_id, response_type: 'code', redirect_uri: callback, scope: 'openid email profile', connection: CONNECTION, state })}`);
    await page.locator('input[name=login]').fill(sub);
    await page.locator('input[name=password]').fill('anything');
    await Promise.all([page.waitForURL((url) => url.href.startsWith(callback) || url.href.startsWith(`${server.baseUrl}/login/callback`)), page.locator('button[type=submit]').click()]);
    await page.waitForLoadState();
    result = { url: new URL(page.url()), text: await page.locator('body').innerText() };
  });
  return result!;
}

describe('SCIM provisioning through an oidc connection, in Chromium', { skip }, () => {
  test('the auth0 SDK configures SCIM (default mapping, edited mapping) and issues a token shown once', () => {
    assert.equal(sdk.created.user_id_attribute, 'externalId');
    assert.equal(sdk.created.connection_name, CONNECTION);
    assert.deepEqual(sdk.created.mapping, sdk.defaultMapping.mapping);
    assert.ok(sdk.read.mapping.some((m: { auth0: string; scim: string }) => m.auth0 === 'user_metadata.job_title' && m.scim === 'title'));
    assert.match(sdk.token.token, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(sdk.third, 409);
    assert.deepEqual(sdk.tokens.map((t: { token_id: string }) => t.token_id), [sdk.token.token_id]);
    assert.equal(sdk.tokens[0].token, undefined);
  });

  test('a user provisioned through SCIM before their first login logs in through the connection as that user', async () => {
    const created = await scim('POST', '/Users', {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
      userName: 'ada@corp.example',
      externalId: 'ada',
      name: { givenName: 'Ada', familyName: 'Lovelace' },
      emails: [{ primary: true, type: 'work', value: 'ada@corp.example' }],
      title: 'Analyst',
      active: true,
    });
    assert.equal(created.status, 201, created.text);
    const provisioned = created.json<{ id: string; meta: { created: string } }>();
    assert.equal(provisioned.id, `oidc|${CONNECTION}|ada`);

    const { url } = await loginThroughConnection('ada', 'st-ada');
    assert.equal(url.origin + url.pathname, callback);
    const claims = await portalIdToken(server, ca, client, callback, url.searchParams.get('code')!);
    assert.equal(claims.sub, provisioned.id);
    const user = await management('GET', `/users/${encodeURIComponent(provisioned.id)}`);
    assert.equal(user.created_at, provisioned.meta.created);
    assert.equal(user.logins_count, 1);
    assert.equal((user.user_metadata as Record<string, unknown>).job_title, 'Analyst');
    assert.equal((user.app_metadata as Record<string, unknown>).external_id, 'ada');
    // Root attributes are the IdP's again at each login (set_user_root_attributes on_each_login, the default).
    assert.equal(user.name, 'ada Corp');
    const byEmail = (await management('GET', `/users-by-email?email=${encodeURIComponent('ada@corp.example')}`)) as unknown as { user_id: string }[];
    assert.deepEqual(byEmail.map((u) => u.user_id), [provisioned.id]);
  });

  test('deactivated through SCIM (Entra ID\'s "False"), the next login through the connection is refused', async () => {
    const id = encodeURIComponent(`oidc|${CONNECTION}|ada`);
    const disabled = await scim('PATCH', `/Users/${id}`, ENTRA.disable);
    assert.equal(disabled.status, 200, disabled.text);
    assert.equal(disabled.json<{ active: boolean }>().active, false);
    const { url, text } = await loginThroughConnection('ada', 'st-blocked');
    assert.notEqual(url.origin + url.pathname, callback);
    assert.match(text, /This user is blocked/);
    assert.equal((await management('GET', `/users/${id}`)).blocked, true);
  });
});
