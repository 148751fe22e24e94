/**
 * Gatehouse as SAML identity provider, end to end: the built server over
 * HTTPS, a SAML service provider made with @node-saml/node-saml (its own
 * HTTPS server on another port, the tenant's certificate), configured from
 * Gatehouse's metadata as read by samlify (entity ID, SSO location, signing
 * certificate), and Chromium through the hosted login page.
 *
 * - SP-initiated: the SP's /login redirects to /samlp/{client_id} with a
 *   signed AuthnRequest (the addon holds the SP's certificate), the user logs
 *   in on the hosted page, the browser posts the signed Response to the ACS,
 *   and the SP accepts it and shows the mapped attributes;
 * - IdP-initiated: /samlp/{client_id} with the SSO session posts a Response
 *   without InResponseTo, which the SP accepts;
 * - single logout: the SP's signed LogoutRequest ends the session, and the
 *   SP accepts the signed LogoutResponse posted back to it;
 * - an SP whose ACS URL is not among the callbacks gets an error page, and
 *   its ACS receives nothing.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { SAML, ValidateInResponseTo, type Profile } from '@node-saml/node-saml';
import type { Browser } from 'playwright-core';
import { samlify } from '../../src/platform/xml/samlify.js';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';
import { keyAndCertificate, type KeyAndCertificate } from '../helpers/saml.js';
import { chromiumSkipReason, inScenario, launchChromium, managementApi, startLocalServer, type LocalServer, type ManagementApi } from './support/chromium.js';
import { cleanUp, httpsRequest } from './support/https.js';

const PASSWORD = 'Sunny-Meadow-42';
const EMAIL = 'grace@example.com';
const CONNECTION = 'saml-e2e-users';
const SP_ENTITY = 'urn:payroll.example';
const DEPARTMENT_CLAIM = 'http://example.com/claims/department';
const CLAIMS = 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims';

const skip = chromiumSkipReason();
let server: ServerProcess;
let ca: Buffer;
let management: ManagementApi;
let browser: Browser | undefined;
let spServer: LocalServer;
let spKeys: KeyAndCertificate;
let clientId: string;
let saml: SAML;
/** The profile of the SP's last login, for its LogoutRequest. */
let lastProfile: Profile | undefined;
/** Every SAMLResponse the ACS received, accepted or not. */
const received: { accepted: boolean; relayState?: string }[] = [];

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

function readBody(req: http.IncomingMessage): Promise<URLSearchParams> {
  return new Promise((resolve, reject) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => resolve(new URLSearchParams(body)));
    req.on('error', reject);
  });
}

/** The service provider: /login starts SP-initiated SSO; /saml/acs validates the Response and shows what it read. */
const serviceProvider: http.RequestListener = (req, res) => {
  void (async () => {
    const url = new URL(req.url ?? '/', 'https://localhost');
    if (req.method === 'GET' && url.pathname === '/login') {
      res.writeHead(302, { location: await saml.getAuthorizeUrlAsync('sp-initiated', undefined, {}) });
      return res.end();
    }
    if (req.method === 'POST' && url.pathname === '/saml/acs') {
      const form = await readBody(req);
      try {
        const { profile } = await saml.validatePostResponseAsync({ SAMLResponse: form.get('SAMLResponse') ?? '' });
        received.push({ accepted: true, relayState: form.get('RelayState') ?? '' });
        lastProfile = profile ?? undefined;
        const rows = Object.entries(profile ?? {})
          .filter(([, value]) => typeof value === 'string')
          .map(([name, value]) => `<dt>${escapeHtml(name)}</dt><dd>${escapeHtml(String(value))}</dd>`)
          .join('\n');
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        return res.end(`<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Payroll</title></head><body><h1>Signed in to Payroll</h1><dl>${rows}</dl></body></html>`);
      } catch (error) {
        received.push({ accepted: false });
        res.writeHead(400, { 'content-type': 'text/plain' });
        return res.end(`refused: ${(error as Error).message}`);
      }
    }
    if (req.method === 'GET' && url.pathname === '/logout') {
      res.writeHead(302, { location: await saml.getLogoutUrlAsync(lastProfile!, 'signed-out', {}) });
      return res.end();
    }
    if (req.method === 'POST' && url.pathname === '/slo') {
      const form = await readBody(req);
      // node-saml checks a POSTed LogoutResponse's signature and issuer; its InResponseTo only under ifPresent.
      const sloSaml = new SAML({ ...saml.options, validateInResponseTo: ValidateInResponseTo.ifPresent });
      const result = await sloSaml.validatePostResponseAsync({ SAMLResponse: form.get('SAMLResponse') ?? '' });
      res.writeHead(result.loggedOut ? 200 : 400, { 'content-type': 'text/html; charset=utf-8' });
      return res.end(`<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Payroll</title></head><body><h1>Signed out of Payroll</h1><p>${escapeHtml(form.get('RelayState') ?? '')}</p></body></html>`);
    }
    res.writeHead(404);
    res.end();
  })().catch((error: Error) => {
    res.writeHead(500, { 'content-type': 'text/plain' });
    res.end(`service provider error: ${error.message}`);
  });
};

before(async () => {
  if (skip) return;
  server = await startServerProcess();
  browser = await launchChromium();
  ca = fs.readFileSync(server.certFile);
  management = await managementApi(server);
  spKeys = await keyAndCertificate('payroll.example');
  spServer = await startLocalServer(serviceProvider, { cert: ca, key: fs.readFileSync(path.join(server.dataDir, 'tls', 'key.pem')) });
  const acs = `${spServer.origin}/saml/acs`;
  const connectionId = (await management('POST', '/connections', { name: CONNECTION, strategy: 'auth0' })).id as string;
  await management('POST', '/users', { connection: CONNECTION, email: EMAIL, password: PASSWORD, name: 'Grace Hopper', user_metadata: { department: 'Navy' } });
  const created = await management('POST', '/clients', {
    name: 'Payroll',
    app_type: 'regular_web',
    callbacks: [acs],
    addons: { samlp: { logout: { callback: `${spServer.origin}/slo` }, audience: SP_ENTITY, signingCert: spKeys.certificatePem, mappings: { 'user_metadata.department': DEPARTMENT_CLAIM } } },
  });
  clientId = created.client_id as string;
  await management('PATCH', `/connections/${connectionId}/clients`, [{ client_id: clientId, status: true }]);

  // The SP configures itself from Gatehouse's metadata.
  const metadata = await httpsRequest(`${server.baseUrl}/samlp/metadata/${clientId}`, { ca, method: 'GET' });
  assert.equal(metadata.status, 200);
  const idp = samlify().IdentityProvider({ metadata: metadata.text });
  const certificate = [idp.entityMeta.getX509Certificate('signing')].flat()[0]!;
  saml = new SAML({
    callbackUrl: acs,
    entryPoint: String(idp.entityMeta.getSingleSignOnService('redirect')),
    logoutUrl: String(idp.entityMeta.getSingleLogoutService('redirect')),
    idpIssuer: idp.entityMeta.getEntityID(),
    idpCert: certificate,
    issuer: SP_ENTITY,
    audience: SP_ENTITY,
    privateKey: spKeys.privateKeyPem,
    signatureAlgorithm: 'sha256',
    wantAuthnResponseSigned: false,
    wantAssertionsSigned: true,
    validateInResponseTo: ValidateInResponseTo.ifPresent,
  });
});

after(async () => {
  await browser?.close();
  await spServer?.close();
  await cleanUp(server ? [server] : [], server ? [server.dataDir] : []);
});

describe('Gatehouse as SAML IdP, in Chromium', { skip }, () => {
  test('SP-initiated login through the hosted login page, then IdP-initiated SSO with the session', async () => {
    await inScenario(browser!, 'saml sp-initiated and idp-initiated', async (scenario) => {
      const { page } = scenario;
      await page.goto(`${spServer.origin}/login`);
      assert.equal(new URL(page.url()).pathname, '/login', `on Gatehouse's login page, not ${page.url()}`);
      await scenario.shot('login page');
      await page.getByLabel('Email address', { exact: true }).fill(EMAIL);
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await Promise.all([page.waitForURL(`${spServer.origin}/saml/acs`), page.getByLabel('Password', { exact: true }).press('Enter')]);
      await page.getByRole('heading', { name: 'Signed in to Payroll' }).waitFor();
      await scenario.shot('sp accepted the response');
      const text = (await page.textContent('dl')) ?? '';
      assert.ok(text.includes(`${CLAIMS}/emailaddress${EMAIL}`), text);
      assert.ok(text.includes(`${DEPARTMENT_CLAIM}Navy`), text);
      assert.match(text, /nameIDauth0\|[0-9a-f]{24}/);
      assert.deepEqual(received.at(-1), { accepted: true, relayState: 'sp-initiated' });

      // IdP-initiated: straight from Gatehouse, the session answers without a login page.
      await Promise.all([page.waitForURL(`${spServer.origin}/saml/acs`), page.goto(`${server.baseUrl}/samlp/${clientId}?RelayState=from-idp`)]);
      await page.getByRole('heading', { name: 'Signed in to Payroll' }).waitFor();
      await scenario.shot('idp-initiated');
      assert.deepEqual(received.at(-1), { accepted: true, relayState: 'from-idp' });

      // Single logout from the SP: the session ends and the SP accepts the signed LogoutResponse.
      await Promise.all([page.waitForURL(`${spServer.origin}/slo`), page.goto(`${spServer.origin}/logout`)]);
      await page.getByRole('heading', { name: 'Signed out of Payroll' }).waitFor();
      await page.getByText('signed-out').waitFor();
      await scenario.shot('single logout');
      const again = await page.goto(`${spServer.origin}/login`);
      assert.equal(new URL(page.url()).pathname, '/login', 'the session is over: the login page again');
      assert.equal(again?.status(), 200);
    });
  });

  test('an SP whose ACS URL is not among the callbacks gets an error page; its ACS receives nothing', async () => {
    await inScenario(browser!, 'saml acs not in callbacks', async (scenario) => {
      const { page } = scenario;
      const before = received.length;
      const rogue = new SAML({ callbackUrl: `${spServer.origin}/rogue/acs`, entryPoint: `${server.baseUrl}/samlp/${clientId}`, issuer: SP_ENTITY, idpCert: 'unused', privateKey: spKeys.privateKeyPem, signatureAlgorithm: 'sha256' });
      const response = await page.goto(await rogue.getAuthorizeUrlAsync('', undefined, {}));
      assert.equal(response?.status(), 400);
      await page.getByText('not in the list of allowed callback URLs').waitFor();
      await scenario.shot('error page');
      assert.equal(new URL(page.url()).origin, server.baseUrl);
      assert.equal(received.length, before);
    });
  });
});
