/**
 * Single logout of the SAML identity provider, through app.inject on the
 * real app and database, with @node-saml/node-saml as the service providers:
 *
 * - an SP's LogoutRequest (HTTP-Redirect, signed) ends the browser's session
 *   and gets a signed LogoutResponse (HTTP-POST) the SP accepts, while the
 *   other SP of the session with `slo_enabled` gets a signed LogoutRequest
 *   naming its own NameID and SessionIndex (verified by that SP);
 * - the HTTP-Redirect `binding` answers with a signed redirect;
 * - `/v2/logout` tells the SPs with `slo_enabled` too;
 * - refused: a LogoutRequest with a bad signature (error page, the session
 *   lives on), one naming another user (`Requester`, the session lives on),
 *   one with a DOCTYPE, an SP without `logout.callback`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { inflateRawSync } from 'node:zlib';
import { SAML, ValidateInResponseTo, type Profile, type SamlConfig } from '@node-saml/node-saml';
import { createTestApp, DOMAIN, type TestApp } from '../helpers/app.js';
import { Browser } from '../helpers/browser.js';
import { keyAndCertificate, postedForm, samlXml, type KeyAndCertificate } from '../helpers/saml.js';

const REALM = 'slo-users';
const PASSWORD = 'Correct horse battery staple 1';

describe('SAML single logout (samlp addon)', () => {
  let t: TestApp;
  let idpCert: string;
  let keys: KeyAndCertificate;
  let otherKeys: KeyAndCertificate;
  let connectionId: string;

  interface App {
    clientId: string;
    sp: SAML;
  }

  async function createApp(name: string, samlp: Record<string, unknown>, spOptions: Partial<SamlConfig> = {}): Promise<App> {
    const acs = `https://${name}.example.com/acs`;
    const res = await t.management('POST', '/api/v2/clients', { body: { name, callbacks: [acs], addons: { samlp: { signingCert: keys.certificatePem, ...samlp } } } });
    assert.equal(res.statusCode, 201, res.body);
    const clientId = (res.json() as { client_id: string }).client_id;
    const enabled = await t.management('PATCH', `/api/v2/connections/${connectionId}/clients`, { body: [{ client_id: clientId, status: true }] });
    assert.ok(enabled.statusCode < 300, enabled.body);
    const sp = new SAML({
      callbackUrl: acs,
      entryPoint: `https://${DOMAIN}/samlp/${clientId}`,
      logoutUrl: `https://${DOMAIN}/samlp/${clientId}/logout`,
      issuer: `urn:${name}`,
      audience: `urn:${name}`,
      idpCert,
      idpIssuer: `urn:${DOMAIN}`,
      privateKey: keys.privateKeyPem,
      signatureAlgorithm: 'sha256',
      wantAuthnResponseSigned: false,
      validateInResponseTo: ValidateInResponseTo.always,
      ...spOptions,
    });
    return { clientId, sp };
  }

  const local = (url: string) => {
    const parsed = new URL(url);
    return parsed.pathname + parsed.search;
  };

  /** Logs in to `app` in `browser` (the login page the first time, the session after); the SP's profile. */
  async function signIn(browser: Browser, app: App): Promise<Profile> {
    const first = await browser.get(local(await app.sp.getAuthorizeUrlAsync('', undefined, {})));
    let done = first;
    if (first.statusCode === 302) {
      const { hidden } = await import('../helpers/browser.js');
      const page = await browser.get(first.headers.location as string);
      done = await browser.post('/login', { state: hidden(page.body, 'state'), csrf_token: hidden(page.body, 'csrf_token'), username: 'lin@example.com', password: PASSWORD });
    }
    assert.equal(done.statusCode, 200, done.body);
    const { profile } = await app.sp.validatePostResponseAsync({ SAMLResponse: postedForm(done.body).fields.SAMLResponse! });
    assert.ok(profile);
    return profile;
  }

  /** Whether the browser's session still answers `app` without a login page. */
  async function stillSignedIn(browser: Browser, app: App): Promise<boolean> {
    const res = await browser.get(local(await app.sp.getAuthorizeUrlAsync('', undefined, {})));
    return res.statusCode === 200;
  }

  before(async () => {
    t = await createTestApp();
    keys = await keyAndCertificate('sp.example.com');
    otherKeys = await keyAndCertificate('attacker.example.com');
    idpCert = (await t.app.inject({ method: 'GET', url: '/pem', headers: { host: DOMAIN } })).body;
    const conn = await t.management('POST', '/api/v2/connections', { body: { name: REALM, strategy: 'auth0' } });
    connectionId = (conn.json() as { id: string }).id;
    const user = await t.management('POST', '/api/v2/users', { body: { connection: REALM, email: 'lin@example.com', password: PASSWORD } });
    assert.equal(user.statusCode, 201, user.body);
    await t.management('POST', '/api/v2/users', { body: { connection: REALM, email: 'other@example.com', password: PASSWORD } });
  });
  after(() => t.close());

  it('SP-initiated SLO: the session ends, the SP accepts the signed LogoutResponse, the other SP is told by a signed LogoutRequest', async () => {
    const mail = await createApp('mail', { logout: { callback: 'https://mail.example.com/slo', slo_enabled: true } });
    const wiki = await createApp('wiki', { logout: { callback: 'https://wiki.example.com/slo', slo_enabled: true } });
    const chat = await createApp('chat', { logout: { callback: 'https://chat.example.com/slo', slo_enabled: false } });
    const browser = new Browser(t);
    const mailProfile = await signIn(browser, mail);
    const wikiProfile = await signIn(browser, wiki);
    await signIn(browser, chat);

    const logoutUrl = await mail.sp.getLogoutUrlAsync(mailProfile, 'back-to-inbox', {});
    const requestId = /ID="([^"]+)"/.exec(inflateRawSync(Buffer.from(new URL(logoutUrl).searchParams.get('SAMLRequest')!, 'base64')).toString())![1];
    const res = await browser.get(local(logoutUrl));
    assert.equal(res.statusCode, 200, res.body);
    assert.match(res.headers['set-cookie'] as string, /__Host-gh_session=; .*Max-Age=0/);
    const csp = res.headers['content-security-policy'] as string;
    assert.match(csp, /frame-src https:\/\/wiki\.example\.com;/);
    assert.match(csp, /form-action https:\/\/mail\.example\.com;/);

    const { action, fields } = postedForm(res.body);
    assert.equal(action, 'https://mail.example.com/slo');
    assert.equal(fields.RelayState, 'back-to-inbox');
    // node-saml reads InResponseTo of a POSTed LogoutResponse only under ifPresent; it is checked here.
    const mailSp = new SAML({ ...mail.sp.options, validateInResponseTo: ValidateInResponseTo.ifPresent });
    assert.deepEqual(await mailSp.validatePostResponseAsync({ SAMLResponse: fields.SAMLResponse! }), { profile: null, loggedOut: true });
    assert.match(samlXml(fields.SAMLResponse!), new RegExp(`<samlp:LogoutResponse [^>]*InResponseTo="${requestId}"`));
    assert.match(samlXml(fields.SAMLResponse!), /status:Success/);

    const frames = [...res.body.matchAll(/<iframe src="([^"]+)"/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));
    assert.equal(frames.length, 1, 'only the other SP with slo_enabled is told');
    const notice = new URL(frames[0]!);
    assert.equal(notice.origin + notice.pathname, 'https://wiki.example.com/slo');
    const told = await wiki.sp.validateRedirectAsync(Object.fromEntries(notice.searchParams), notice.search.slice(1));
    assert.equal(told.loggedOut, true);
    assert.equal(told.profile?.nameID, wikiProfile.nameID);
    assert.equal(told.profile?.sessionIndex, wikiProfile.sessionIndex);

    assert.equal(await stillSignedIn(browser, chat), false, 'the session is over for every SP');
  });

  it('the HTTP-Redirect binding answers with a signed redirect to logout.callback', async () => {
    const app = await createApp('crm', { binding: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect', logout: { callback: 'https://crm.example.com/slo?tenant=a' } });
    const browser = new Browser(t);
    const profile = await signIn(browser, app);
    const res = await browser.get(local(await app.sp.getLogoutUrlAsync(profile, 'rs', {})));
    assert.equal(res.statusCode, 302, res.body);
    const location = new URL(res.headers.location as string);
    assert.equal(location.origin + location.pathname, 'https://crm.example.com/slo');
    assert.equal(location.searchParams.get('tenant'), 'a');
    assert.equal(location.searchParams.get('RelayState'), 'rs');
    const answer = await app.sp.validateRedirectAsync(Object.fromEntries(location.searchParams), location.search.slice(1).replace(/^tenant=a&/, ''));
    assert.equal(answer.loggedOut, true);
    assert.equal(await stillSignedIn(browser, app), false);
  });

  it('/v2/logout tells the SAML SPs with slo_enabled, then goes to returnTo', async () => {
    const app = await createApp('docs', { logout: { callback: 'https://docs.example.com/slo', slo_enabled: true } });
    const set = await t.management('PATCH', `/api/v2/clients/${app.clientId}`, { body: { allowed_logout_urls: ['https://docs.example.com/bye'] } });
    assert.equal(set.statusCode, 200, set.body);
    const browser = new Browser(t);
    const profile = await signIn(browser, app);
    const res = await browser.get(`/v2/logout?client_id=${app.clientId}&returnTo=${encodeURIComponent('https://docs.example.com/bye')}`);
    assert.equal(res.statusCode, 200, res.body);
    assert.match(res.body, /<a id="continue" href="https:\/\/docs\.example\.com\/bye">/);
    const frame = /<iframe src="([^"]+)"/.exec(res.body)![1]!.replace(/&amp;/g, '&');
    const notice = new URL(frame);
    const told = await app.sp.validateRedirectAsync(Object.fromEntries(notice.searchParams), notice.search.slice(1));
    assert.equal(told.profile?.nameID, profile.nameID);
    assert.equal(await stillSignedIn(browser, app), false);
  });

  it('refuses a LogoutRequest signed with another key: an error page, the session lives on', async () => {
    const app = await createApp('hr', { logout: { callback: 'https://hr.example.com/slo' } });
    const browser = new Browser(t);
    const profile = await signIn(browser, app);
    const forger = new SAML({ callbackUrl: 'https://hr.example.com/acs', entryPoint: `https://${DOMAIN}/samlp/${app.clientId}`, logoutUrl: `https://${DOMAIN}/samlp/${app.clientId}/logout`, issuer: 'urn:hr', idpCert, privateKey: otherKeys.privateKeyPem, signatureAlgorithm: 'sha256' });
    const res = await browser.get(local(await forger.getLogoutUrlAsync(profile, '', {})));
    assert.equal(res.statusCode, 400, res.body);
    assert.match(res.body, /does not verify/);
    assert.equal(res.headers['set-cookie'], undefined);
    assert.equal(await stillSignedIn(browser, app), true);
  });

  it('a LogoutRequest for another user answers Requester and ends nothing; a DOCTYPE is refused; no logout.callback is an error page', async () => {
    const app = await createApp('ops', { logout: { callback: 'https://ops.example.com/slo' } });
    const browser = new Browser(t);
    const profile = await signIn(browser, app);
    const res = await browser.get(local(await app.sp.getLogoutUrlAsync({ ...profile, nameID: 'auth0|someone-else' }, '', {})));
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.headers['set-cookie'], undefined);
    assert.match(samlXml(postedForm(res.body).fields.SAMLResponse!), /status:Requester/);
    assert.equal(await stillSignedIn(browser, app), true);

    const doctype = `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e "x">]><samlp:LogoutRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" ID="_1" Version="2.0"/>`;
    const refused = await browser.post(`/samlp/${app.clientId}/logout`, { SAMLRequest: Buffer.from(doctype).toString('base64') });
    assert.equal(refused.statusCode, 400);
    assert.match(refused.body, /document type declaration/);

    const silent = await createApp('silent', {});
    const none = await browser.get(local(await silent.sp.getLogoutUrlAsync(profile, '', {})));
    assert.equal(none.statusCode, 400);
    assert.match(none.body, /no logout callback/);
    assert.equal(await stillSignedIn(browser, app), true);
  });
});
