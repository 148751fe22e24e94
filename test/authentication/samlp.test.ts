/**
 * Gatehouse as SAML identity provider (the `samlp` addon), through
 * app.inject on the real app and database, with @node-saml/node-saml as the
 * service provider: it makes the AuthnRequests (HTTP-Redirect and HTTP-POST,
 * signed or not) and validates the Responses (signature with the tenant's
 * certificate from /pem, audience, InResponseTo, times).
 *
 * Also: the addon's settings checked by the Management API, metadata and the
 * certificate downloads, IdP-initiated SSO, the SSO session, and the
 * refusals (ACS URL not in callbacks, a bad or missing SP signature, a
 * DOCTYPE, a comment in the Issuer, a foreign Destination).
 */
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { deflateRawSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { SAML, ValidateInResponseTo, type SamlConfig } from '@node-saml/node-saml';
import { createTestApp, DOMAIN, type TestApp } from '../helpers/app.js';
import { Browser } from '../helpers/browser.js';
import { keyAndCertificate, postedForm, samlXml, type KeyAndCertificate } from '../helpers/saml.js';

const REALM = 'saml-users';
const PASSWORD = 'Correct horse battery staple 1';
const ACS = 'https://sp.example.com/saml/acs';
const SP_ENTITY = 'urn:sp.example.com';
const CLAIMS = 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims';

describe('SAML identity provider (samlp addon)', () => {
  let t: TestApp;
  let idpCert: string;
  let spKeys: KeyAndCertificate;
  let otherKeys: KeyAndCertificate;
  /** An SP that does not sign its requests. */
  let plainApp: string;
  /** An SP whose requests must be signed (signingCert), answered with a signed Response in RSA-SHA1. */
  let signedApp: string;

  async function createSamlApp(samlp: Record<string, unknown>): Promise<string> {
    const res = await t.management('POST', '/api/v2/clients', {
      body: { name: 'Payroll', app_type: 'regular_web', callbacks: [ACS, 'https://sp.example.com/other-acs'], addons: { samlp } },
    });
    assert.equal(res.statusCode, 201, res.body);
    const clientId = (res.json() as { client_id: string }).client_id;
    const conn = await t.management('PATCH', `/api/v2/connections/${connectionId}/clients`, { body: [{ client_id: clientId, status: true }] });
    assert.ok(conn.statusCode < 300, conn.body);
    return clientId;
  }
  let connectionId: string;

  const sp = (clientId: string, options: Partial<SamlConfig> = {}) =>
    new SAML({
      callbackUrl: ACS,
      entryPoint: `https://${DOMAIN}/samlp/${clientId}`,
      issuer: SP_ENTITY,
      audience: SP_ENTITY,
      idpCert,
      idpIssuer: `urn:${DOMAIN}`,
      wantAuthnResponseSigned: false,
      validateInResponseTo: ValidateInResponseTo.always,
      ...options,
    });

  /** The path and query of an absolute URL, for app.inject. */
  const local = (url: string) => {
    const parsed = new URL(url);
    assert.equal(parsed.host, DOMAIN);
    return parsed.pathname + parsed.search;
  };

  before(async () => {
    t = await createTestApp();
    spKeys = await keyAndCertificate('sp.example.com');
    otherKeys = await keyAndCertificate('attacker.example.com');
    const conn = await t.management('POST', '/api/v2/connections', { body: { name: REALM, strategy: 'auth0' } });
    assert.equal(conn.statusCode, 201, conn.body);
    connectionId = (conn.json() as { id: string }).id;
    const user = await t.management('POST', '/api/v2/users', {
      body: { connection: REALM, email: 'ada@example.com', password: PASSWORD, given_name: 'Ada', family_name: 'Lovelace', name: 'Ada Lovelace', user_metadata: { department: 'Engineering' } },
    });
    assert.equal(user.statusCode, 201, user.body);
    plainApp = await createSamlApp({ mappings: { 'user_metadata.department': 'http://example.com/claims/department' } });
    signedApp = await createSamlApp({ signingCert: spKeys.certificatePem, signResponse: true, signatureAlgorithm: 'rsa-sha1', digestAlgorithm: 'sha1', lifetimeInSeconds: 600 });
    const pem = await t.app.inject({ method: 'GET', url: '/pem', headers: { host: DOMAIN } });
    assert.equal(pem.statusCode, 200);
    idpCert = pem.body;
  });
  after(() => t.close());

  describe('the addon in the Management API', () => {
    for (const [samlp, message] of [
      [{ signatureAlgorithm: 'rsa-md5' }, "'must be one of rsa-sha256, rsa-sha1' on property addons.samlp.signatureAlgorithm"],
      [{ signResonse: true }, "'is not a setting of the samlp addon' on property addons.samlp.signResonse"],
      [{ signingCert: 'not a certificate' }, "on property addons.samlp.signingCert"],
      [{ lifetimeInSeconds: 0 }, "on property addons.samlp.lifetimeInSeconds"],
      [{ recipient: 'javascript:alert(1)' }, "'must be an http or https URL' on property addons.samlp.recipient"],
      [{ logout: { callback: 'https://sp.example.com/slo', slo_enabled: 'yes' } }, "'slo_enabled must be a boolean' on property addons.samlp.logout"],
      [{ nameIdentifierProbes: [] }, 'on property addons.samlp.nameIdentifierProbes'],
      [{ mappings: { email: 42 } }, 'on property addons.samlp.mappings'],
    ] as const) {
      it(`refuses ${JSON.stringify(samlp)} on create and on update, changing nothing`, async () => {
        const created = await t.management('POST', '/api/v2/clients', { body: { name: 'Bad SAML', addons: { samlp } } });
        assert.equal(created.statusCode, 400, created.body);
        assert.match((created.json() as { message: string }).message, new RegExp(message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
        const updated = await t.management('PATCH', `/api/v2/clients/${plainApp}`, { body: { addons: { samlp } } });
        assert.equal(updated.statusCode, 400, updated.body);
        const stored = await t.management('GET', `/api/v2/clients/${plainApp}`);
        assert.deepEqual((stored.json() as { addons: unknown }).addons, { samlp: { mappings: { 'user_metadata.department': 'http://example.com/claims/department' } } });
      });
    }
  });

  describe('metadata and certificates', () => {
    it('the metadata names the entity, the tenant certificate (the one /pem and /cer serve) and both bindings', async () => {
      const res = await t.app.inject({ method: 'GET', url: `/samlp/metadata/${signedApp}`, headers: { host: DOMAIN } });
      assert.equal(res.statusCode, 200);
      assert.match(res.headers['content-type'] as string, /^text\/xml/);
      assert.match(res.body, new RegExp(`entityID="urn:${DOMAIN}"`));
      assert.match(res.body, /WantAuthnRequestsSigned="true"/);
      const cer = await t.app.inject({ method: 'GET', url: '/cer', headers: { host: DOMAIN } });
      assert.equal(cer.statusCode, 200);
      const fromCer = new X509Certificate(cer.rawPayload);
      assert.ok(fromCer.verify(new X509Certificate(idpCert).publicKey), '/cer and /pem are the same certificate');
      assert.ok(res.body.includes(fromCer.raw.toString('base64')), 'the metadata carries the signing certificate');
      for (const binding of ['HTTP-Redirect', 'HTTP-POST']) {
        assert.ok(res.body.includes(`<SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:${binding}" Location="https://${DOMAIN}/samlp/${signedApp}"`), binding);
        assert.ok(res.body.includes(`<SingleLogoutService Binding="urn:oasis:names:tc:SAML:2.0:bindings:${binding}" Location="https://${DOMAIN}/samlp/${signedApp}/logout"`), binding);
      }
      const plain = await t.app.inject({ method: 'GET', url: `/samlp/metadata/${plainApp}`, headers: { host: DOMAIN } });
      assert.match(plain.body, /WantAuthnRequestsSigned="false"/);
    });

    it('no metadata for an unknown client or one without the addon', async () => {
      const other = await t.management('POST', '/api/v2/clients', { body: { name: 'OIDC only' } });
      for (const id of ['nope', (other.json() as { client_id: string }).client_id]) {
        const res = await t.app.inject({ method: 'GET', url: `/samlp/metadata/${id}`, headers: { host: DOMAIN } });
        assert.equal(res.statusCode, 400);
      }
    });
  });

  describe('SP-initiated login', () => {
    it('HTTP-Redirect: the login page, then a signed Response posted to the ACS URL with the mapped attributes; then SSO', async () => {
      const serviceProvider = sp(plainApp);
      const browser = new Browser(t);
      const done = await browser.login(local(await serviceProvider.getAuthorizeUrlAsync('relay & state', undefined, {})), 'ada@example.com', PASSWORD);
      assert.equal(done.statusCode, 200, done.body);
      const csp = done.headers['content-security-policy'] as string;
      assert.match(csp, /form-action https:\/\/sp\.example\.com;/);
      const { action, fields } = postedForm(done.body);
      assert.equal(action, ACS);
      assert.equal(fields.RelayState, 'relay & state');
      const { profile } = await serviceProvider.validatePostResponseAsync({ SAMLResponse: fields.SAMLResponse! });
      assert.ok(profile);
      assert.match(profile.nameID, /^auth0\|/);
      assert.equal(profile.nameIDFormat, 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified');
      assert.equal(profile[`${CLAIMS}/emailaddress`], 'ada@example.com');
      assert.equal(profile[`${CLAIMS}/upn`], 'ada@example.com');
      assert.equal(profile[`${CLAIMS}/givenname`], 'Ada');
      assert.equal(profile[`${CLAIMS}/surname`], 'Lovelace');
      assert.equal(profile['http://example.com/claims/department'], 'Engineering');
      assert.equal(profile['http://schemas.auth0.com/identities/default/connection'], REALM);
      assert.equal(profile['http://schemas.auth0.com/clientID'], plainApp);
      assert.equal(profile.issuer, `urn:${DOMAIN}`);
      const xml = samlXml(fields.SAMLResponse!);
      assert.ok(xml.includes('Algorithm="http://www.w3.org/2001/04/xmldsig-more#rsa-sha256"'), 'RSA-SHA256 by default');
      assert.ok(!xml.includes('password'), 'no password hash');
      assert.match(xml, /<saml:AttributeValue xsi:type="xs:boolean">false<\/saml:AttributeValue>/);

      // The SSO session answers the next request without the login page.
      const again = await browser.get(local(await serviceProvider.getAuthorizeUrlAsync('', undefined, {})));
      assert.equal(again.statusCode, 200, again.body);
      const second = await serviceProvider.validatePostResponseAsync({ SAMLResponse: postedForm(again.body).fields.SAMLResponse! });
      assert.equal(second.profile?.nameID, profile.nameID);
      // A replayed Response is refused by the SP: its InResponseTo was spent.
      await assert.rejects(serviceProvider.validatePostResponseAsync({ SAMLResponse: fields.SAMLResponse! }));
    });

    it('ForceAuthn asks for the password again despite the session', async () => {
      const browser = new Browser(t);
      const serviceProvider = sp(plainApp);
      await browser.login(local(await serviceProvider.getAuthorizeUrlAsync('', undefined, {})), 'ada@example.com', PASSWORD);
      const forced = await browser.get(local(await sp(plainApp, { forceAuthn: true }).getAuthorizeUrlAsync('', undefined, {})));
      assert.equal(forced.statusCode, 302);
      assert.match(forced.headers.location as string, /^\/login\?state=/);
    });

    it('IsPassive without a session answers NoPassive to the ACS URL, with no login page', async () => {
      const serviceProvider = sp(plainApp, { passive: true });
      const res = await new Browser(t).get(local(await serviceProvider.getAuthorizeUrlAsync('', undefined, {})));
      assert.equal(res.statusCode, 200, res.body);
      const { action, fields } = postedForm(res.body);
      assert.equal(action, ACS);
      assert.match(samlXml(fields.SAMLResponse!), /status:NoPassive/);
    });

    it('signed HTTP-Redirect and HTTP-POST requests of an SP with a signingCert; the whole Response signed with RSA-SHA1 as configured', async () => {
      // node-saml DEFLATEs POSTed requests unless told not to; both forms are read.
      for (const [binding, skipRequestCompression] of [['HTTP-Redirect', false], ['HTTP-POST', true], ['HTTP-POST', false]] as const) {
        const serviceProvider = sp(signedApp, { privateKey: spKeys.privateKeyPem, signatureAlgorithm: 'sha256', authnRequestBinding: binding, skipRequestCompression, wantAuthnResponseSigned: true, wantAssertionsSigned: false });
        const browser = new Browser(t);
        let first;
        if (binding === 'HTTP-Redirect') {
          first = await browser.get(local(await serviceProvider.getAuthorizeUrlAsync('', undefined, {})));
        } else {
          const message = await serviceProvider.getAuthorizeMessageAsync('rs');
          if (skipRequestCompression) assert.match(samlXml(String(message.SAMLRequest)), /<(\w+:)?Signature /, 'the POST request is signed');
          first = await browser.post(`/samlp/${signedApp}`, message as Record<string, string>);
        }
        assert.equal(first.statusCode, 302, `${binding}: ${first.body}`);
        const page = await browser.get(first.headers.location as string);
        const { hidden } = await import('../helpers/browser.js');
        const done = await browser.post('/login', { state: hidden(page.body, 'state'), csrf_token: hidden(page.body, 'csrf_token'), username: 'ada@example.com', password: PASSWORD });
        const { fields } = postedForm(done.body);
        const xml = samlXml(fields.SAMLResponse!);
        assert.ok(xml.includes('Algorithm="http://www.w3.org/2000/09/xmldsig#rsa-sha1"'), 'RSA-SHA1 as configured');
        assert.match(xml, /^<samlp:Response[^>]*><saml:Issuer[^>]*>[^<]*<\/saml:Issuer><ds:Signature/, 'the Response is signed');
        const { profile } = await serviceProvider.validatePostResponseAsync({ SAMLResponse: fields.SAMLResponse! });
        assert.equal(profile?.[`${CLAIMS}/emailaddress`], 'ada@example.com');
        const lifetime = /NotBefore="([^"]+)" NotOnOrAfter="([^"]+)"/.exec(xml)!;
        assert.equal(Date.parse(lifetime[2]!) - Date.parse(lifetime[1]!), 600_000, 'lifetimeInSeconds');
      }
    });
  });

  describe('assertion encryption', () => {
    it('with encryptionCert the signed assertion is encrypted to the SP (AES-256-GCM, RSA-OAEP); node-saml decrypts and verifies it', async () => {
      const encryptedApp = await createSamlApp({ encryptionCert: spKeys.certificatePem });
      const serviceProvider = sp(encryptedApp, { decryptionPvk: spKeys.privateKeyPem });
      const done = await new Browser(t).login(local(await serviceProvider.getAuthorizeUrlAsync('', undefined, {})), 'ada@example.com', PASSWORD);
      const { fields } = postedForm(done.body);
      const xml = samlXml(fields.SAMLResponse!);
      assert.match(xml, /<saml:EncryptedAssertion/);
      assert.ok(!xml.includes('ada@example.com'), 'nothing of the user in clear');
      assert.ok(xml.includes('http://www.w3.org/2009/xmlenc11#aes256-gcm'));
      const { profile } = await serviceProvider.validatePostResponseAsync({ SAMLResponse: fields.SAMLResponse! });
      assert.equal(profile?.[`${CLAIMS}/emailaddress`], 'ada@example.com');
      // Another SP's key cannot read it.
      await assert.rejects(sp(encryptedApp, { decryptionPvk: otherKeys.privateKeyPem }).validatePostResponseAsync({ SAMLResponse: fields.SAMLResponse! }));
    });

    it('refuses encryptionPublicKey without encryptionCert', async () => {
      const publicKey = new X509Certificate(spKeys.certificatePem).publicKey.export({ type: 'spki', format: 'pem' }) as string;
      const res = await t.management('POST', '/api/v2/clients', { body: { name: 'Half', addons: { samlp: { encryptionPublicKey: publicKey } } } });
      assert.equal(res.statusCode, 400, res.body);
      assert.match(res.body, /needs encryptionCert/);
    });
  });

  describe('IdP-initiated SSO', () => {
    it('without SAMLRequest: after login, a Response without InResponseTo to the first callback', async () => {
      const browser = new Browser(t);
      const done = await browser.login(`/samlp/${plainApp}?RelayState=%2Fdashboard`, 'ada@example.com', PASSWORD);
      assert.equal(done.statusCode, 200, done.body);
      const { action, fields } = postedForm(done.body);
      assert.equal(action, ACS);
      assert.equal(fields.RelayState, '/dashboard');
      assert.ok(!samlXml(fields.SAMLResponse!).includes('InResponseTo'));
      const { profile } = await sp(plainApp, { validateInResponseTo: ValidateInResponseTo.never, audience: ACS }).validatePostResponseAsync({ SAMLResponse: fields.SAMLResponse! });
      assert.equal(profile?.[`${CLAIMS}/emailaddress`], 'ada@example.com');
    });
  });

  describe('refusals: an error page, never a post', () => {
    const refused = async (url: string, pattern: RegExp, browser = new Browser(t)) => {
      const res = await browser.get(url);
      assert.equal(res.statusCode, 400, res.body);
      assert.ok(!res.body.includes('SAMLResponse'), 'nothing posted');
      assert.equal(res.headers.location, undefined);
      assert.match(res.body, pattern);
    };
    const redirectRequest = (clientId: string, xml: string, extra: Record<string, string> = {}) =>
      `/samlp/${clientId}?${new URLSearchParams({ SAMLRequest: deflateRawSync(Buffer.from(xml)).toString('base64'), ...extra })}`;
    const authnXml = (attributes: string, issuer = SP_ENTITY) =>
      `<samlp:AuthnRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_r1" Version="2.0" IssueInstant="2026-01-01T00:00:00Z" ${attributes}><saml:Issuer>${issuer}</saml:Issuer></samlp:AuthnRequest>`;

    it('an AssertionConsumerServiceURL not among the callbacks', async () => {
      const serviceProvider = sp(plainApp, { callbackUrl: 'https://evil.example.com/acs' });
      await refused(local(await serviceProvider.getAuthorizeUrlAsync('', undefined, {})), /not in the list of allowed callback URLs/);
      await refused(redirectRequest(plainApp, authnXml(`AssertionConsumerServiceURL="${ACS}/../evil"`)), /not in the list of allowed callback URLs/);
    });

    it('a request signed with another key, an unsigned one, and a signature stripped of its SigAlg, when the addon has a signingCert', async () => {
      const forged = sp(signedApp, { privateKey: otherKeys.privateKeyPem, signatureAlgorithm: 'sha256' });
      await refused(local(await forged.getAuthorizeUrlAsync('', undefined, {})), /does not verify/);
      await refused(local(await sp(signedApp).getAuthorizeUrlAsync('', undefined, {})), /must be signed/);
      const genuine = new URL(await sp(signedApp, { privateKey: spKeys.privateKeyPem, signatureAlgorithm: 'sha256' }).getAuthorizeUrlAsync('', undefined, {}));
      genuine.searchParams.delete('SigAlg');
      await refused(genuine.pathname + genuine.search, /must be signed/);
      // The genuine request with a different RelayState: the signature covers it.
      const tampered = new URL(await sp(signedApp, { privateKey: spKeys.privateKeyPem, signatureAlgorithm: 'sha256' }).getAuthorizeUrlAsync('original', undefined, {}));
      tampered.searchParams.set('RelayState', 'changed');
      await refused(tampered.pathname + tampered.search, /does not verify/);
    });

    it('an HTTP-POST request whose signature covers another element than the request (wrapping)', async () => {
      const serviceProvider = sp(signedApp, { privateKey: spKeys.privateKeyPem, signatureAlgorithm: 'sha256', authnRequestBinding: 'HTTP-POST', skipRequestCompression: true });
      const message = await serviceProvider.getAuthorizeMessageAsync('');
      const signed = samlXml(String(message.SAMLRequest));
      // The signed request moved inside an unsigned one that sends the response elsewhere.
      const wrapped = signed.replace(/^(<\?xml[^>]*\?>)?/, `<samlp:AuthnRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" ID="_evil" Version="2.0" AssertionConsumerServiceURL="https://evil.example.com/acs"><samlp:Extensions>`).concat('</samlp:Extensions></samlp:AuthnRequest>');
      const res = await new Browser(t).post(`/samlp/${signedApp}`, { SAMLRequest: Buffer.from(wrapped).toString('base64') });
      assert.equal(res.statusCode, 400, res.body);
      assert.ok(!res.body.includes('SAMLResponse'));
    });

    it('XML with a DOCTYPE or an entity, in either binding', async () => {
      const doctype = `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]>${authnXml(`AssertionConsumerServiceURL="${ACS}"`, '&x;')}`;
      await refused(redirectRequest(plainApp, doctype), /document type declaration/);
      const res = await new Browser(t).post(`/samlp/${plainApp}`, { SAMLRequest: Buffer.from(doctype).toString('base64') });
      assert.equal(res.statusCode, 400, res.body);
      assert.match(res.body, /document type declaration/);
    });

    it('a NUL character in the XML, raw or as a character reference, in either binding (XML 1.0 has no such character)', async () => {
      for (const issuer of [`${SP_ENTITY}&#0;`, `${SP_ENTITY}&#x00;`, `${SP_ENTITY}\u0000`]) {
        const xml = authnXml(`AssertionConsumerServiceURL="${ACS}"`, issuer);
        await refused(redirectRequest(plainApp, xml), /NUL character/);
        const res = await new Browser(t).post(`/samlp/${plainApp}`, { SAMLRequest: Buffer.from(xml).toString('base64') });
        assert.equal(res.statusCode, 400, res.body);
        assert.match(res.body, /NUL character/);
      }
    });

    it('a comment inside the Issuer, a Destination other than this endpoint, a deflate bomb, a non-SAML document', async () => {
      await refused(redirectRequest(plainApp, authnXml('', `${SP_ENTITY}<!-- -->.evil`)), /unexpected content/);
      await refused(redirectRequest(plainApp, authnXml(`Destination="https://elsewhere.example.com/samlp/${plainApp}"`)), /Destination/);
      const bomb = `/samlp/${plainApp}?${new URLSearchParams({ SAMLRequest: deflateRawSync(Buffer.alloc(1024 * 1024, 32)).toString('base64') })}`;
      await refused(bomb, /at most 128 KiB/);
      const postedBomb = await new Browser(t).post(`/samlp/${plainApp}`, { SAMLRequest: deflateRawSync(Buffer.alloc(1024 * 1024, 32)).toString('base64') });
      assert.equal(postedBomb.statusCode, 400);
      await refused(redirectRequest(plainApp, '<html xmlns="http://www.w3.org/1999/xhtml"/>'), /Expected a samlp:AuthnRequest/);
    });

    it('an unknown client, or a client without the addon', async () => {
      await refused('/samlp/unknown-client', /Unknown client/);
      const other = await t.management('POST', '/api/v2/clients', { body: { name: 'No SAML', callbacks: [ACS] } });
      await refused(`/samlp/${(other.json() as { client_id: string }).client_id}`, /SAML2 Web App addon/);
    });
  });
});
