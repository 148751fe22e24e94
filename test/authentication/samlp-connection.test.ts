/**
 * Gatehouse as SAML service provider (`strategy: "samlp"` connections),
 * through app.inject on the real app and database, with samlify as the
 * external identity provider (it reads Gatehouse's SP metadata, verifies the
 * signed AuthnRequest, and signs its Responses):
 *
 * - the connection's options checked by the Management API; the SP metadata;
 * - SP-initiated: /authorize?connection= → the IdP → POST /login/callback →
 *   303 → the browser that started it finishes → a code → an ID token for
 *   `samlp|{connection}|{NameID}`;
 * - IdP-initiated: POST /login/callback?connection= → /authorize of the
 *   configured client → a code → an ID token;
 * - refused, each: unsigned, signed by another key, signature wrapping, a
 *   comment in the NameID, expired and not yet valid, wrong Audience,
 *   Destination and Recipient, a replay, an unknown InResponseTo, a DOCTYPE,
 *   an unsolicited response when IdP-initiated login is off, and the 303 hop
 *   followed by another browser (login CSRF).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from 'jose';
import { createTestApp, DOMAIN, tokenRequest, withClockAdvanced, type TestApp } from '../helpers/app.js';
import { Browser } from '../helpers/browser.js';
import { externalIdp, keyAndCertificate, type ExternalIdp } from '../helpers/saml.js';

const CALLBACK = 'https://portal.example.com/callback';
const CONNECTION = 'corp-idp';
const ACS = `https://${DOMAIN}/login/callback?connection=${CONNECTION}`;

describe('SAML enterprise connections (Gatehouse as SP)', () => {
  let t: TestApp;
  let idp: ExternalIdp;
  let forger: ExternalIdp;
  let spMetadata: string;
  let portal: { client_id: string; client_secret: string };
  let jwks: ReturnType<typeof createLocalJWKSet>;

  const callback = (body: Record<string, string>, browser = new Browser(t), connection = CONNECTION) => browser.post(`/login/callback?connection=${connection}`, body);

  /** Follows a 302 to /authorize (or any local URL) until the client's callback; the code. */
  async function codeFrom(browser: Browser, location: string): Promise<string> {
    let res = await browser.get(location);
    while (res.statusCode === 302 && (res.headers.location as string).startsWith('/')) res = await browser.get(res.headers.location as string);
    assert.equal(res.statusCode, 302, res.body);
    const target = new URL(res.headers.location as string);
    assert.equal(target.origin + target.pathname, CALLBACK);
    return target.searchParams.get('code')!;
  }

  async function idToken(code: string) {
    const res = await tokenRequest(t.app, { grant_type: 'authorization_code', client_id: portal.client_id, client_secret: portal.client_secret, code, redirect_uri: CALLBACK });
    assert.equal(res.statusCode, 200, res.body);
    return (await jwtVerify((res.json() as { id_token: string }).id_token, jwks, { audience: portal.client_id })).payload;
  }

  /** Starts an SP-initiated login in `browser`: the IdP's request (its ID) and the RelayState. */
  async function startLogin(browser: Browser): Promise<{ requestId: string; relayState: string }> {
    const authorize = await browser.get(`/authorize?${new URLSearchParams({ client_id: portal.client_id, response_type: 'code', redirect_uri: CALLBACK, scope: 'openid profile email', connection: CONNECTION, state: 'app-state' })}`);
    assert.equal(authorize.statusCode, 302, authorize.body);
    assert.match(authorize.headers.location as string, /^\/login\/connection\?state=/);
    const toIdp = await browser.get(authorize.headers.location as string);
    assert.equal(toIdp.statusCode, 302, toIdp.body);
    const location = toIdp.headers.location as string;
    assert.ok(location.startsWith(`${idp.ssoUrl}?SAMLRequest=`), location);
    const requestId = await idp.readRequest(spMetadata, location);
    return { requestId, relayState: new URL(location).searchParams.get('RelayState')! };
  }

  const refused = async (body: Record<string, string>, pattern: RegExp, connection = CONNECTION) => {
    const res = await callback(body, new Browser(t), connection);
    assert.equal(res.statusCode, 400, res.body);
    assert.equal(res.headers.location, undefined);
    assert.equal(res.headers['set-cookie'], undefined, 'no session');
    assert.match(res.body, pattern);
  };

  before(async () => {
    t = await createTestApp();
    idp = externalIdp(await keyAndCertificate('idp.example.com'));
    forger = externalIdp(await keyAndCertificate('forger.example.com'));
    const client = await t.management('POST', '/api/v2/clients', {
      body: { name: 'Portal', app_type: 'regular_web', is_first_party: true, token_endpoint_auth_method: 'client_secret_post', callbacks: [CALLBACK], grant_types: ['authorization_code'] },
    });
    assert.equal(client.statusCode, 201, client.body);
    portal = client.json() as typeof portal;
    const conn = await t.management('POST', '/api/v2/connections', {
      body: {
        name: CONNECTION,
        strategy: 'samlp',
        enabled_clients: [portal.client_id],
        options: {
          signInEndpoint: idp.ssoUrl,
          signingCert: Buffer.from(idp.keys.certificatePem).toString('base64'),
          signSAMLRequest: true,
          fieldsMap: { given_name: 'given_name' },
          idpinitiated: { enabled: true, client_id: portal.client_id, client_protocol: 'oidc', client_authorizequery: `redirect_uri=${CALLBACK}&scope=openid email` },
          domain_aliases: ['corp.example.com'],
        },
      },
    });
    assert.equal(conn.statusCode, 201, conn.body);
    const off = await t.management('POST', '/api/v2/connections', { body: { name: 'no-idp-init', strategy: 'samlp', enabled_clients: [portal.client_id], options: { signInEndpoint: idp.ssoUrl, signingCert: idp.keys.certificatePem } } });
    assert.equal(off.statusCode, 201, off.body);
    spMetadata = (await t.app.inject({ method: 'GET', url: `/samlp/metadata?connection=${CONNECTION}`, headers: { host: DOMAIN } })).body;
    jwks = createLocalJWKSet((await t.app.inject({ method: 'GET', url: '/.well-known/jwks.json', headers: { host: DOMAIN } })).json() as JSONWebKeySet);
  });
  after(() => t.close());

  it('the Management API checks the options of a samlp connection', async () => {
    for (const [options, message] of [
      [{ signingCert: idp.keys.certificatePem }, "'is required for a samlp connection' on property options.signInEndpoint"],
      [{ signInEndpoint: idp.ssoUrl, signingCert: 'garbage' }, 'on property options.signingCert'],
      [{ signInEndpoint: 'http://idp.example.com/sso', signingCert: idp.keys.certificatePem }, 'on property options.signInEndpoint'],
      [{ signInEndpoint: idp.ssoUrl, signingCert: idp.keys.certificatePem, signatureAlgorithm: 'rsa-md5' }, 'on property options.signatureAlgorithm'],
      [{ signInEndpoint: idp.ssoUrl, signingCert: idp.keys.certificatePem, wantsEverything: true }, "'is not an option of samlp connections' on property options.wantsEverything"],
      [{ signInEndpoint: idp.ssoUrl, signingCert: idp.keys.certificatePem, idpinitiated: { enabled: true } }, 'client_id is required when enabled'],
      [{ signInEndpoint: idp.ssoUrl, signingCert: idp.keys.certificatePem, domain_aliases: ['not a domain'] }, 'on property options.domain_aliases'],
    ] as const) {
      const res = await t.management('POST', '/api/v2/connections', { body: { name: 'bad-saml', strategy: 'samlp', options } });
      assert.equal(res.statusCode, 400, res.body);
      assert.ok((res.json() as { message: string }).message.includes(message), res.body);
    }
    const list = await t.management('GET', '/api/v2/connections?strategy=samlp');
    assert.deepEqual((list.json() as { name: string }[]).map((c) => c.name).sort(), [CONNECTION, 'no-idp-init']);
  });

  it('the SP metadata names the entity, the ACS URL and the signing certificate', async () => {
    assert.match(spMetadata, new RegExp(`entityID="urn:auth0:${t.tenant.name}:${CONNECTION}"`));
    assert.ok(spMetadata.includes(`Location="${ACS}"`), spMetadata);
    assert.match(spMetadata, /AuthnRequestsSigned="true"/);
    assert.match(spMetadata, /WantAssertionsSigned="true"/);
  });

  it('SP-initiated: /authorize?connection= → the IdP (signed AuthnRequest) → /login/callback → a code → an ID token for the samlp user', async () => {
    const browser = new Browser(t);
    const { requestId, relayState } = await startLogin(browser);
    const SAMLResponse = await idp.respond(spMetadata, { inResponseTo: requestId, nameId: 'grace@corp.example.com', email: 'grace@corp.example.com', givenName: 'Grace' });
    // The IdP's post is cross-site: the browser binding cookie does not come along.
    const posted = await callback({ SAMLResponse, RelayState: relayState });
    assert.equal(posted.statusCode, 303, posted.body);
    const hop = posted.headers.location as string;
    assert.match(hop, /^\/login\/callback\?state=/);

    // Login CSRF: another browser following the hop gets nothing.
    const elsewhere = await new Browser(t).get(hop);
    assert.equal(elsewhere.statusCode, 400);
    assert.equal(elsewhere.headers.location, undefined);

    const claims = await idToken(await codeFrom(browser, hop));
    assert.equal(claims.sub, `samlp|${CONNECTION}|grace@corp.example.com`);
    assert.equal(claims.email, 'grace@corp.example.com');
    assert.equal(claims.given_name, 'Grace');

    // The session is reused for the next request of the client.
    const again = await browser.get(`/authorize?${new URLSearchParams({ client_id: portal.client_id, response_type: 'code', redirect_uri: CALLBACK, scope: 'openid', connection: CONNECTION })}`);
    assert.equal(again.statusCode, 302);
    assert.ok((again.headers.location as string).startsWith(`${CALLBACK}?code=`), again.headers.location as string);

    // The response cannot be used a second time.
    await refused({ SAMLResponse, RelayState: relayState }, /already used/);
  });

  it('IdP-initiated: POST /login/callback?connection= (form) → /authorize of the configured client → an ID token; the user profile refreshed', async () => {
    const browser = new Browser(t);
    const SAMLResponse = await idp.respond(spMetadata, { nameId: 'grace@corp.example.com', email: 'grace@corp.example.com', givenName: 'Grace B.' });
    const posted = await callback({ SAMLResponse }, browser);
    assert.equal(posted.statusCode, 302, posted.body);
    const location = posted.headers.location as string;
    assert.match(location, /^\/authorize\?/);
    const query = new URL(location, 'https://x').searchParams;
    assert.equal(query.get('client_id'), portal.client_id);
    assert.equal(query.get('redirect_uri'), CALLBACK);
    const claims = await idToken(await codeFrom(browser, location));
    assert.equal(claims.sub, `samlp|${CONNECTION}|grace@corp.example.com`);
    const user = await t.management('GET', `/api/v2/users/${encodeURIComponent(`samlp|${CONNECTION}|grace@corp.example.com`)}`);
    assert.equal((user.json() as { given_name: string }).given_name, 'Grace B.');
  });

  it('home realm discovery: an email of a domain alias typed on the login page goes to the IdP; other emails log in with a password', async () => {
    const db = await t.management('POST', '/api/v2/connections', { body: { name: 'portal-db', strategy: 'auth0', enabled_clients: [portal.client_id] } });
    assert.equal(db.statusCode, 201, db.body);
    const browser = new Browser(t);
    const authorize = await browser.get(`/authorize?${new URLSearchParams({ client_id: portal.client_id, response_type: 'code', redirect_uri: CALLBACK, scope: 'openid email', state: 'hrd' })}`);
    assert.equal(authorize.headers.location?.toString().startsWith('/login?state='), true, authorize.body);
    const page = await browser.get(authorize.headers.location as string);
    const { hidden } = await import('../helpers/browser.js');
    const form = { state: hidden(page.body, 'state'), csrf_token: hidden(page.body, 'csrf_token') };

    const other = await browser.post('/login', { ...form, username: 'someone@other.example', password: 'whatever it is' });
    assert.equal(other.statusCode, 400);
    assert.match(other.body, /Wrong email or password/);

    const sent = await browser.post('/login', { ...form, username: 'Hopper@CORP.example.com', password: 'not read' });
    assert.equal(sent.statusCode, 200, sent.body);
    const location = /<a href="([^"]+)">Continue/.exec(sent.body)![1]!.replace(/&amp;/g, '&');
    assert.ok(location.startsWith(`${idp.ssoUrl}?SAMLRequest=`), location);
    const requestId = await idp.readRequest(spMetadata, location);
    const SAMLResponse = await idp.respond(spMetadata, { inResponseTo: requestId, nameId: 'hopper@corp.example.com', email: 'hopper@corp.example.com' });
    const posted = await callback({ SAMLResponse, RelayState: new URL(location).searchParams.get('RelayState')! });
    assert.equal(posted.statusCode, 303, posted.body);
    const claims = await idToken(await codeFrom(browser, posted.headers.location as string));
    assert.equal(claims.sub, `samlp|${CONNECTION}|hopper@corp.example.com`);
  });

  it('a Response signed as a whole (not its assertion) is accepted too', async () => {
    const SAMLResponse = await idp.respond(spMetadata, { nameId: 'ada@corp.example.com', email: 'ada@corp.example.com', signResponse: true });
    const xml = Buffer.from(SAMLResponse, 'base64').toString();
    assert.match(xml, /^<samlp:Response[^>]*><saml:Issuer>[^<]*<\/saml:Issuer><ds:Signature/);
    const posted = await callback({ SAMLResponse });
    assert.equal(posted.statusCode, 302, posted.body);
  });

  describe('refusals (400 page, no session, no user)', () => {
    const respond = (values: Record<string, string | null> = {}, nameId = 'mallory@corp.example.com') => idp.respond(spMetadata, { nameId, email: nameId, values });
    const edit = (base64: string, change: (xml: string) => string) => Buffer.from(change(Buffer.from(base64, 'base64').toString())).toString('base64');

    it('an unsigned response, and one signed by another key', async () => {
      const unsigned = edit(await respond(), (xml) => xml.replace(/<ds:Signature[\s\S]*?<\/ds:Signature>/, ''));
      await refused({ SAMLResponse: unsigned }, /not signed/);
      await refused({ SAMLResponse: await forger.respond(spMetadata, { nameId: 'x@corp.example.com', email: 'x@corp.example.com' }) }, /does not verify/);
    });

    it('signature wrapping: a second, unsigned assertion beside the signed one, or the signed one hidden in a wrapper', async () => {
      const genuine = await respond({}, 'user@corp.example.com');
      const evilAssertion = (xml: string) => /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(xml)![0].replace(/<ds:Signature[\s\S]*?<\/ds:Signature>/, '').replace(/ID="[^"]+"/, 'ID="_evil"').replace(/user@corp\.example\.com/g, 'admin@corp.example.com');
      await refused({ SAMLResponse: edit(genuine, (xml) => xml.replace('</samlp:Response>', `${evilAssertion(xml)}</samlp:Response>`)) }, /exactly one Assertion/);
      await refused({ SAMLResponse: edit(genuine, (xml) => xml.replace('</samlp:Response>', `${evilAssertion(xml)}</samlp:Response>`).replace(/<saml:Assertion /, '<samlp:Extensions><saml:Assertion ').replace(/<\/saml:Assertion><saml:Assertion/, '</saml:Assertion></samlp:Extensions><saml:Assertion')) }, /not signed|exactly one/);
      assert.equal((await t.management('GET', `/api/v2/users/${encodeURIComponent(`samlp|${CONNECTION}|admin@corp.example.com`)}`)).statusCode, 404);
    });

    it('a comment injected in the NameID (the signature still verifies: exclusive c14n drops comments)', async () => {
      const signed = await respond({}, 'admin@corp.example.com.evil.example');
      await refused({ SAMLResponse: edit(signed, (xml) => xml.replace('admin@corp.example.com.evil.example</saml:NameID>', 'admin@corp.example.com<!---->.evil.example</saml:NameID>')) }, /unexpected content/);
    });

    it('an expired or not yet valid assertion (the context clock moved)', async () => {
      const SAMLResponse = await respond();
      await withClockAdvanced(t, 10 * 60_000, () => refused({ SAMLResponse }, /expired/));
      await withClockAdvanced(t, -10 * 60_000, () => refused({ SAMLResponse }, /not yet valid/));
    });

    it('a wrong Audience, Destination or Recipient', async () => {
      await refused({ SAMLResponse: await respond({ Audience: 'urn:auth0:other:corp-idp' }) }, /another audience/);
      await refused({ SAMLResponse: await respond({ Destination: `https://${DOMAIN}/login/callback?connection=no-idp-init` }) }, /Destination/);
      await refused({ SAMLResponse: await respond({ SubjectRecipient: 'https://evil.example.com/acs' }) }, /Recipient/);
    });

    it('an unknown InResponseTo, with or without the RelayState of a real login', async () => {
      const browser = new Browser(t);
      const { relayState } = await startLogin(browser);
      await refused({ SAMLResponse: await idp.respond(spMetadata, { inResponseTo: '_not-our-request', nameId: 'a@corp.example.com', email: 'a@corp.example.com' }), RelayState: relayState }, /InResponseTo/);
      await refused({ SAMLResponse: await idp.respond(spMetadata, { inResponseTo: '_not-our-request', nameId: 'a@corp.example.com', email: 'a@corp.example.com' }) }, /InResponseTo/);
    });

    it('XML with a DOCTYPE, an unsolicited response where IdP-initiated login is off, an unknown connection', async () => {
      const doctype = Buffer.from('<?xml version="1.0"?><!DOCTYPE r [<!ENTITY e SYSTEM "file:///etc/passwd">]><samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol">&e;</samlp:Response>').toString('base64');
      await refused({ SAMLResponse: doctype }, /document type declaration/);
      const offMetadata = (await t.app.inject({ method: 'GET', url: '/samlp/metadata?connection=no-idp-init', headers: { host: DOMAIN } })).body;
      await refused({ SAMLResponse: await idp.respond(offMetadata, { nameId: 'b@corp.example.com', email: 'b@corp.example.com' }) }, /not enabled/, 'no-idp-init');
      await refused({ SAMLResponse: await respond() }, /Unknown SAML connection/, 'nope');
    });
  });
});
