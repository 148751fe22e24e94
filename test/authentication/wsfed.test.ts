/**
 * WS-Federation passive sign-in and sign-out (the `wsfed` addon), through
 * app.inject on the real app and database: the signed SAML 1.1 assertion in
 * `wresult` (its signature checked with xml-crypto against GET /pem, by
 * `AssertionID`), the realm, the SSO session, `wctx`, sign-out, the
 * federation metadata, and the refusals (wreply not in callbacks, unknown
 * realm, no addon, wreply not an Allowed Logout URL).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DOMParser } from '@xmldom/xmldom';
import { SignedXml } from '../../src/platform/xml/xml-crypto.js';
import { createTestApp, DOMAIN, type TestApp } from '../helpers/app.js';
import { Browser } from '../helpers/browser.js';

const REALM_CONNECTION = 'wsfed-users';
const PASSWORD = 'Correct horse battery staple 1';
const RP = 'https://rp.example.com/signin-wsfed';
const CLAIMS = 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims';

const unescape = (value: string) => value.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
const field = (body: string, name: string) => unescape(new RegExp(`name="${name}" value="([^"]*)"`).exec(body)?.[1] ?? '');

describe('WS-Federation (wsfed addon)', () => {
  let t: TestApp;
  let clientId: string;
  let pem: string;

  /** The signed assertion of a wresult: verified with the tenant's certificate; what it says. */
  function readResult(wresult: string) {
    const doc = new DOMParser().parseFromString(wresult, 'text/xml');
    const assertion = doc.getElementsByTagNameNS('urn:oasis:names:tc:SAML:1.0:assertion', 'Assertion')[0]!;
    const signature = assertion.getElementsByTagNameNS('http://www.w3.org/2000/09/xmldsig#', 'Signature')[0]!;
    const verifier = new (SignedXml())({ publicCert: pem, idAttribute: 'AssertionID', getCertFromKeyInfo: () => null });
    verifier.loadSignature(signature);
    assert.equal(verifier.checkSignature(wresult), true, 'the assertion signature verifies');
    assert.equal(verifier.getReferences()[0]!.uri, `#${assertion.getAttribute('AssertionID')}`);
    const attributes = new Map<string, string>();
    for (const attribute of Array.from(assertion.getElementsByTagNameNS('urn:oasis:names:tc:SAML:1.0:assertion', 'Attribute'))) {
      attributes.set(`${attribute.getAttribute('AttributeNamespace')}/${attribute.getAttribute('AttributeName')}`, attribute.textContent ?? '');
    }
    return {
      issuer: assertion.getAttribute('Issuer'),
      audience: assertion.getElementsByTagNameNS('urn:oasis:names:tc:SAML:1.0:assertion', 'Audience')[0]!.textContent,
      nameId: assertion.getElementsByTagNameNS('urn:oasis:names:tc:SAML:1.0:assertion', 'NameIdentifier')[0]!.textContent,
      attributes,
    };
  }

  before(async () => {
    t = await createTestApp();
    const res = await t.management('POST', '/api/v2/clients', {
      body: { name: 'Intranet', callbacks: [RP], client_aliases: ['https://rp.example.com/'], allowed_logout_urls: ['https://rp.example.com/signed-out'], addons: { wsfed: {} } },
    });
    assert.equal(res.statusCode, 201, res.body);
    clientId = (res.json() as { client_id: string }).client_id;
    await t.management('POST', '/api/v2/connections', { body: { name: REALM_CONNECTION, strategy: 'auth0', enabled_clients: [clientId] } });
    const user = await t.management('POST', '/api/v2/users', { body: { connection: REALM_CONNECTION, email: 'wes@example.com', password: PASSWORD, name: 'Wes' } });
    assert.equal(user.statusCode, 201, user.body);
    pem = (await t.app.inject({ method: 'GET', url: '/pem', headers: { host: DOMAIN } })).body;
  });
  after(() => t.close());

  it('wsignin1.0: login, then a form posting wa, the signed SAML 1.1 assertion and wctx to wreply; the session answers the next request', async () => {
    const browser = new Browser(t);
    const done = await browser.login(`/wsfed/${clientId}?${new URLSearchParams({ wtrealm: `urn:${clientId}`, wctx: 'rm=0&id=passive&ru=/home' })}`, 'wes@example.com', PASSWORD);
    assert.equal(done.statusCode, 200, done.body);
    assert.match(done.body, new RegExp(`<form method="post" action="${RP}">`));
    assert.equal(field(done.body, 'wa'), 'wsignin1.0');
    assert.equal(field(done.body, 'wctx'), 'rm=0&id=passive&ru=/home');
    const token = readResult(field(done.body, 'wresult'));
    assert.equal(token.issuer, `urn:${DOMAIN}`);
    assert.equal(token.audience, `urn:${clientId}`);
    assert.match(token.nameId ?? '', /^auth0\|/);
    assert.equal(token.attributes.get(`${CLAIMS}/emailaddress`), 'wes@example.com');
    assert.equal(token.attributes.get(`${CLAIMS}/name`), 'Wes');

    const again = await browser.get(`/wsfed?${new URLSearchParams({ wtrealm: 'https://rp.example.com/', wreply: RP })}`);
    assert.equal(again.statusCode, 400, 'a wtrealm alias needs the client in the path');
    const sso = await browser.get(`/wsfed/${clientId}?${new URLSearchParams({ wtrealm: 'https://rp.example.com/' })}`);
    assert.equal(sso.statusCode, 200, sso.body);
    assert.equal(readResult(field(sso.body, 'wresult')).audience, 'https://rp.example.com/', 'an alias is the audience');
    const fresh = await browser.get(`/wsfed/${clientId}?wfresh=0`);
    assert.equal(fresh.statusCode, 302);
    assert.match(fresh.headers.location as string, /^\/login\?state=/);

    const out = await browser.get(`/wsfed/${clientId}?${new URLSearchParams({ wa: 'wsignout1.0', wreply: 'https://rp.example.com/signed-out' })}`);
    assert.equal(out.statusCode, 302);
    assert.equal(out.headers.location, 'https://rp.example.com/signed-out');
    const after = await browser.get(`/wsfed/${clientId}`);
    assert.equal(after.statusCode, 302, 'the session ended');
  });

  it('GET /wsfed with wtrealm=urn:{client_id} finds the client', async () => {
    const res = await new Browser(t).get(`/wsfed?wtrealm=urn:${clientId}`);
    assert.equal(res.statusCode, 302);
    assert.match(res.headers.location as string, /^\/login\?state=/);
  });

  it('refuses a wreply outside the callbacks, an unknown realm, a client without the addon, a sign-out wreply outside the Allowed Logout URLs', async () => {
    for (const url of [
      `/wsfed/${clientId}?wreply=${encodeURIComponent('https://evil.example.com/')}`,
      `/wsfed/${clientId}?wtrealm=${encodeURIComponent('urn:someone-else')}`,
      `/wsfed/${clientId}?wa=wsignout1.0&wreply=${encodeURIComponent('https://evil.example.com/')}`,
      `/wsfed/${clientId}?wa=wattr1.0`,
      `/wsfed/${t.admin.client_id}`,
      '/wsfed/unknown',
    ]) {
      const res = await new Browser(t).get(url);
      assert.equal(res.statusCode, 400, `${url}: ${res.body}`);
      assert.equal(res.headers.location, undefined);
      assert.ok(!res.body.includes('wresult'));
    }
  });

  it('federation metadata: the issuer, the signing certificate and the passive endpoint', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/wsfed/FederationMetadata/2007-06/FederationMetadata.xml', headers: { host: DOMAIN } });
    assert.equal(res.statusCode, 200);
    assert.match(res.body, new RegExp(`entityID="urn:${DOMAIN}"`));
    assert.match(res.body, /xsi:type="fed:SecurityTokenServiceType"/);
    assert.ok(res.body.includes(`<wsa:Address>https://${DOMAIN}/wsfed</wsa:Address>`));
    const body = pem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
    assert.ok(res.body.includes(`<ds:X509Certificate>${body}</ds:X509Certificate>`));
  });
});
