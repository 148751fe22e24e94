/**
 * Self-service SSO end to end: the built server over HTTPS, a customer's
 * SAML identity provider made with samlify (its own HTTPS server), and
 * Chromium.
 *
 * The tenant makes a self-service profile and an SSO ticket for the
 * customer (enabling the connection it will create for the application and
 * the customer's organization); the customer's administrator opens the
 * ticket in Chromium and pastes the IdP's metadata; the connection exists;
 * the customer's user then logs in to the organization through it (the IdP
 * configured from the new connection's SP metadata) and the application
 * gets an ID token of `samlp|{connection}|{NameID}` with the organization.
 * The ticket cannot be used again.
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

const CONNECTION = 'initech-sso';
const NAME_ID = 'peter@initech.example';

const skip = chromiumSkipReason();
let server: ServerProcess;
let ca: Buffer;
let management: ManagementApi;
let browser: Browser | undefined;
let idpServer: LocalServer;
let appServer: LocalServer;
let idp: ExternalIdp;
/** The new connection's SP metadata: known once the ticket's page made the connection. */
let spMetadata = '';
let client: { client_id: string; client_secret: string };
let callback: string;
let organizationId: string;
let ticketUrl: string;

/** The customer's identity provider: /sso, /signin (./support/saml-idp.ts). */
const identityProvider = samlIdpListener({ idp: () => idp, spMetadata: () => spMetadata, name: 'Initech', user: { nameId: NAME_ID, email: NAME_ID, givenName: 'Peter' } });

before(async () => {
  if (skip) return;
  server = await startServerProcess();
  browser = await launchChromium();
  ca = fs.readFileSync(server.certFile);
  const tls = { cert: ca, key: fs.readFileSync(path.join(server.dataDir, 'tls', 'key.pem')) };
  idpServer = await startLocalServer(identityProvider, tls);
  appServer = await startLocalServer(portalCallback, tls);
  callback = `${appServer.origin}/callback`;
  idp = externalIdp(await keyAndCertificate('idp.initech.example'), `${idpServer.origin}/metadata`, `${idpServer.origin}/sso`);
  management = await managementApi(server);
  client = (await management('POST', '/clients', {
    name: 'Portal',
    app_type: 'regular_web',
    is_first_party: true,
    token_endpoint_auth_method: 'client_secret_post',
    callbacks: [callback],
    grant_types: ['authorization_code'],
    organization_usage: 'allow',
  })) as unknown as typeof client;
  organizationId = (await management('POST', '/organizations', { name: 'initech' })).id as string;
  const profile = await management('POST', '/self-service-profiles', { name: 'Initech', allowed_strategies: ['samlp'] });
  ticketUrl = (await management('POST', `/self-service-profiles/${profile.id as string}/sso-ticket`, {
    connection_config: { name: CONNECTION },
    enabled_clients: [client.client_id],
    enabled_organizations: [{ organization_id: organizationId, assign_membership_on_login: true }],
    ttl_sec: 3600,
  })).ticket as string;
});

after(async () => {
  await browser?.close();
  await idpServer?.close();
  await appServer?.close();
  await cleanUp(server ? [server] : [], server ? [server.dataDir] : []);
});

describe('self-service SSO in Chromium', { skip }, () => {
  test('the customer\'s administrator sets up SAML from the ticket; the customer\'s user then logs in; the ticket is spent', async () => {
    assert.ok(ticketUrl.startsWith(`${server.baseUrl}/self-service/connections-flow?ticket=`), ticketUrl);
    await inScenario(browser!, 'self-service sso setup and login', async (scenario) => {
      const { page } = scenario;
      await page.goto(ticketUrl);
      await page.getByRole('heading', { name: 'Set up single sign-on: Initech' }).waitFor();
      await page.getByLabel("Your identity provider's SAML 2.0 metadata (XML)").fill(idp.metadata);
      await scenario.shot('ticket page with metadata');
      await page.getByRole('button', { name: 'Create the connection' }).click();
      await page.getByRole('heading', { name: 'Single sign-on is ready' }).waitFor();
      assert.equal(await page.locator('#connection').textContent(), CONNECTION);
      await scenario.shot('connection ready');

      const connections = (await management('GET', `/connections?name=${CONNECTION}`)) as unknown as { strategy: string; options: { signInEndpoint: string } }[];
      assert.equal(connections[0]!.strategy, 'samlp');
      assert.equal(connections[0]!.options.signInEndpoint, idp.ssoUrl);
      // The IdP is given the new connection's SP metadata, as the page says.
      const metadata = await httpsRequest(`${server.baseUrl}/samlp/metadata?connection=${CONNECTION}`, { ca, method: 'GET' });
      assert.equal(metadata.status, 200);
      spMetadata = metadata.text;

      // The customer's user logs in to the organization through the new connection.
      const authorize = `${server.baseUrl}/authorize?${new URLSearchParams({ client_id: client.client_id, response_type: 'code', redirect_uri: callback, scope: 'openid email', connection: CONNECTION, organization: organizationId, state: 'st-ss' })}`;
      await page.goto(authorize);
      await page.getByRole('heading', { name: 'Initech sign-in' }).waitFor();
      await Promise.all([page.waitForURL(`${callback}?**`), page.getByRole('button', { name: 'Sign in as Peter' }).click()]);
      await page.getByRole('heading', { name: 'Portal callback' }).waitFor();
      await scenario.shot('application callback');
      const url = new URL(page.url());
      assert.equal(url.searchParams.get('state'), 'st-ss');
      const claims = await portalIdToken(server, ca, client, callback, url.searchParams.get('code')!);
      assert.equal(claims.sub, `samlp|${CONNECTION}|${NAME_ID}`);
      assert.equal(claims.org_id, organizationId);

      // The ticket was spent.
      const again = await page.goto(ticketUrl);
      assert.equal(again?.status(), 400);
      await page.getByRole('heading', { name: 'This link is not valid' }).waitFor();
    });
  });
});
