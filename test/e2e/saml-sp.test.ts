/**
 * Gatehouse as SAML service provider, end to end: the built server over
 * HTTPS, an external identity provider made with samlify (its own HTTPS
 * server on another port, configured from Gatehouse's SP metadata, which it
 * fetches over HTTPS), and Chromium.
 *
 * - SP-initiated: the application sends the browser to /authorize with
 *   `connection`, Gatehouse sends it to the IdP with a signed AuthnRequest
 *   (the IdP verifies it against the metadata's certificate), the user signs
 *   in at the IdP, the IdP posts its signed Response to Gatehouse's ACS URL,
 *   and the application's callback receives a code that the token endpoint
 *   exchanges for an ID token of `samlp|{connection}|{NameID}`;
 * - home realm discovery: an email of the IdP's domain typed on the hosted
 *   login page leads to the IdP, and on to the application;
 * - IdP-initiated: the IdP posts an unsolicited Response to
 *   `/login/callback?connection=…`; the configured client gets a code and the
 *   token endpoint an ID token of the same user.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { externalIdp, keyAndCertificate, type ExternalIdp } from '../helpers/saml.js';
import { chromiumSkipReason, inScenario, launchChromium, managementApi, startLocalServer, type LocalServer, type ManagementApi } from './support/chromium.js';
import { cleanUp, httpsRequest } from './support/https.js';
import { portalCallback, portalIdToken } from './support/portal.js';
import { samlIdpListener } from './support/saml-idp.js';

const CONNECTION = 'corp';
const NAME_ID = 'grace@corp.example.com';

const skip = chromiumSkipReason();
let server: ServerProcess;
let ca: Buffer;
let management: ManagementApi;
let browser: Browser | undefined;
let idpServer: LocalServer;
let appServer: LocalServer;
let idp: ExternalIdp;
let spMetadata: string;
let client: { client_id: string; client_secret: string };
let callback: string;

/** The identity provider: /sso, /signin and /start (./support/saml-idp.ts). */
const identityProvider = samlIdpListener({ idp: () => idp, spMetadata: () => spMetadata, name: 'Corp', user: { nameId: NAME_ID, email: NAME_ID, givenName: 'Grace' } });

const application = portalCallback;
const idTokenFor = (code: string) => portalIdToken(server, ca, client, callback, code);

before(async () => {
  if (skip) return;
  server = await startServerProcess();
  browser = await launchChromium();
  ca = fs.readFileSync(server.certFile);
  const tls = { cert: ca, key: fs.readFileSync(path.join(server.dataDir, 'tls', 'key.pem')) };
  idpServer = await startLocalServer(identityProvider, tls);
  appServer = await startLocalServer(application, tls);
  callback = `${appServer.origin}/callback`;
  idp = externalIdp(await keyAndCertificate('idp.corp.example'), `${idpServer.origin}/metadata`, `${idpServer.origin}/sso`);
  management = await managementApi(server);
  client = (await management('POST', '/clients', {
    name: 'Portal',
    app_type: 'regular_web',
    is_first_party: true,
    token_endpoint_auth_method: 'client_secret_post',
    callbacks: [callback],
    grant_types: ['authorization_code'],
  })) as unknown as typeof client;
  await management('POST', '/connections', {
    name: CONNECTION,
    strategy: 'samlp',
    enabled_clients: [client.client_id],
    options: {
      signInEndpoint: idp.ssoUrl,
      signingCert: idp.keys.certificatePem,
      signSAMLRequest: true,
      domain_aliases: ['corp.example.com'],
      idpinitiated: { enabled: true, client_id: client.client_id, client_protocol: 'oidc', client_authorizequery: `redirect_uri=${callback}&scope=openid email profile` },
    },
  });
  // The IdP configures itself from Gatehouse's SP metadata, fetched over HTTPS.
  const metadata = await httpsRequest(`${server.baseUrl}/samlp/metadata?connection=${CONNECTION}`, { ca, method: 'GET' });
  assert.equal(metadata.status, 200);
  spMetadata = metadata.text;
});

after(async () => {
  await browser?.close();
  await idpServer?.close();
  await appServer?.close();
  await cleanUp(server ? [server] : [], server ? [server.dataDir] : []);
});

describe('Gatehouse as SAML SP of an external IdP, in Chromium', { skip }, () => {
  test('SP-initiated: /authorize?connection= → the IdP → the ACS → a code → an ID token of the samlp user', async () => {
    await inScenario(browser!, 'saml sp-initiated login at an external idp', async (scenario) => {
      const { page } = scenario;
      const authorize = `${server.baseUrl}/authorize?${new URLSearchParams({ client_id: client.client_id, response_type: 'code', redirect_uri: callback, scope: 'openid email profile', connection: CONNECTION, state: 'st-1' })}`;
      await page.goto(authorize);
      assert.equal(new URL(page.url()).origin, idpServer.origin, `at the IdP, not ${page.url()}`);
      await page.getByRole('heading', { name: 'Corp sign-in' }).waitFor();
      await scenario.shot('idp sign-in');
      await Promise.all([page.waitForURL(`${callback}?**`), page.getByRole('button', { name: 'Sign in as Grace' }).click()]);
      await page.getByRole('heading', { name: 'Portal callback' }).waitFor();
      await scenario.shot('application callback');
      const url = new URL(page.url());
      assert.equal(url.searchParams.get('state'), 'st-1');
      const claims = await idTokenFor(url.searchParams.get('code')!);
      assert.equal(claims.sub, `samlp|${CONNECTION}|${NAME_ID}`);
      assert.equal(claims.email, NAME_ID);
      assert.equal(claims.aud, client.client_id);
    });
  });

  test('home realm discovery: a corp.example.com email on the login page goes to the IdP, then back to the application', async () => {
    await inScenario(browser!, 'saml home realm discovery', async (scenario) => {
      const { page } = scenario;
      await page.goto(`${server.baseUrl}/authorize?${new URLSearchParams({ client_id: client.client_id, response_type: 'code', redirect_uri: callback, scope: 'openid email', state: 'st-2' })}`);
      assert.equal(new URL(page.url()).pathname, '/login');
      await page.getByLabel('Email address', { exact: true }).fill(NAME_ID);
      await page.getByLabel('Password', { exact: true }).fill('not used for this domain');
      await Promise.all([page.waitForURL(`${idpServer.origin}/sso?**`), page.getByRole('button', { name: 'Log in' }).click()]);
      await scenario.shot('at the idp');
      await Promise.all([page.waitForURL(`${callback}?**`), page.getByRole('button', { name: 'Sign in as Grace' }).click()]);
      const url = new URL(page.url());
      assert.equal(url.searchParams.get('state'), 'st-2');
      assert.equal((await idTokenFor(url.searchParams.get('code')!)).sub, `samlp|${CONNECTION}|${NAME_ID}`);
    });
  });

  test('IdP-initiated: the IdP posts an unsolicited Response; the configured client gets a code and an ID token', async () => {
    await inScenario(browser!, 'saml idp-initiated login', async (scenario) => {
      const { page } = scenario;
      await Promise.all([page.waitForURL(`${callback}?**`), page.goto(`${idpServer.origin}/start`)]);
      await page.getByRole('heading', { name: 'Portal callback' }).waitFor();
      await scenario.shot('application callback');
      const claims = await idTokenFor(new URL(page.url()).searchParams.get('code')!);
      assert.equal(claims.sub, `samlp|${CONNECTION}|${NAME_ID}`);
    });
  });
});
