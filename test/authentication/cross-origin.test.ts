/**
 * Cross-origin authentication (src/authentication/cross-origin/) through
 * app.inject on the real app and database: POST /co/authenticate and its
 * CORS answers, the login ticket redeemed at /authorize (once, in time, for
 * its client, in the browser that holds the verifier), the verification page
 * and POST /co/verify for a browser without the cookie, and the refusals in
 * the service's shapes, brute-force protection included.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { MAX_FAILURES } from '../../src/domain/brute-force.js';
import { LIFETIMES } from '../../src/domain/lifetimes.js';
import { createTestApp, DOMAIN, withClockAdvanced, type TestApp } from '../helpers/app.js';
import { authorizeUrl, hidden, Jar } from '../helpers/browser.js';
import { insertClient, type TestClient } from '../helpers/fixtures.js';

const REALM = 'Username-Password-Authentication';
const PASSWORD = 'correct horse battery staple';
const PASSWORD_REALM = 'http://auth0.com/oauth/grant-type/password-realm';
const APP = 'https://app.example.com';
const CALLBACK = `${APP}/callback`;
const LOC = `${APP}/co-verify.html`;

describe('cross-origin authentication', () => {
  let t: TestApp;
  let spa: TestClient;
  let other: TestClient;
  let disabled: TestClient;

  const clientConfig = (crossOrigin: boolean) => ({
    callbacks: [CALLBACK],
    web_origins: [APP],
    allowed_origins: [],
    cross_origin_authentication: crossOrigin,
    cross_origin_loc: LOC,
    grant_types: ['authorization_code', 'implicit'],
  });

  const authenticate = (body: Record<string, unknown>, headers: Record<string, string> = { origin: APP }, remoteAddress = '10.1.0.1') =>
    t.app.inject({ method: 'POST', url: '/co/authenticate', headers: { host: DOMAIN, 'content-type': 'application/json', ...headers }, payload: body, remoteAddress });

  const loginBody = (client: TestClient, extra: Record<string, unknown> = {}) => ({
    client_id: client.client_id,
    username: 'carol@example.com',
    password: PASSWORD,
    realm: REALM,
    credential_type: PASSWORD_REALM,
    ...extra,
  });

  const authorize = (client: TestClient, ticket: string, jar: Jar, extra: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url: authorizeUrl(client.client_id, CALLBACK, { login_ticket: ticket, realm: REALM, ...extra }), headers: { host: DOMAIN, cookie: jar.header() } });

  /** The redirect's query parameters at the callback. */
  const callbackParams = (res: LightMyRequestResponse) => {
    assert.equal(res.statusCode, 302, res.body);
    const location = new URL(res.headers.location as string);
    assert.equal(`${location.origin}${location.pathname}`, CALLBACK);
    return location.searchParams;
  };

  /** A successful /co/authenticate: its body, and a jar holding what it set. */
  async function login(client: TestClient = spa): Promise<{ ticket: { login_ticket: string; co_verifier: string; co_id: string }; jar: Jar }> {
    const res = await authenticate(loginBody(client));
    assert.equal(res.statusCode, 200, res.body);
    const jar = new Jar();
    jar.take(res);
    return { ticket: res.json(), jar };
  }

  before(async () => {
    t = await createTestApp();
    spa = await insertClient(t, { app_type: 'spa', token_endpoint_auth_method: 'none', client_secret_enc: null, grant_types: ['authorization_code', 'implicit'], config: clientConfig(true) });
    other = await insertClient(t, { app_type: 'spa', token_endpoint_auth_method: 'none', client_secret_enc: null, grant_types: ['authorization_code', 'implicit'], config: clientConfig(true) });
    disabled = await insertClient(t, { app_type: 'spa', token_endpoint_auth_method: 'none', client_secret_enc: null, grant_types: ['authorization_code'], config: clientConfig(false) });
    const res = await t.management('POST', '/api/v2/connections', { body: { name: REALM, strategy: 'auth0', enabled_clients: [spa.client_id, other.client_id, disabled.client_id] } });
    assert.equal(res.statusCode, 201, res.body);
    const email = await t.management('POST', '/api/v2/connections', { body: { name: 'email', strategy: 'email', enabled_clients: [spa.client_id] } });
    assert.equal(email.statusCode, 201, email.body);
    for (const email of ['carol@example.com', 'mallory@example.com']) {
      const user = await t.management('POST', '/api/v2/users', { body: { connection: REALM, email, password: PASSWORD } });
      assert.equal(user.statusCode, 201, user.body);
    }
  });
  after(() => t.close());

  it('answers the ticket with credentialed CORS for a web origin, and the ticket logs in at /authorize once', async () => {
    const res = await authenticate(loginBody(spa));
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.headers['access-control-allow-origin'], APP);
    assert.equal(res.headers['access-control-allow-credentials'], 'true');
    const body = res.json() as Record<string, string>;
    assert.deepEqual(Object.keys(body).sort(), ['co_id', 'co_verifier', 'login_ticket']);
    assert.ok(!body.login_ticket!.includes('carol'), 'the ticket is opaque');
    const cookie = ([] as string[]).concat(res.headers['set-cookie'] as string | string[]).find((c) => c.startsWith('__Host-gh_co='));
    assert.ok(cookie?.includes('SameSite=None') && cookie.includes('HttpOnly') && cookie.includes('Secure'), String(cookie));

    const jar = new Jar();
    jar.take(res);
    const first = await authorize(spa, body.login_ticket!, jar);
    const params = callbackParams(first);
    assert.ok(params.get('code'), first.headers.location as string);
    assert.equal(params.get('state'), 's');
    assert.ok(([] as string[]).concat(first.headers['set-cookie'] as string[]).some((c) => c.startsWith('__Host-gh_session=')), 'a session starts');

    const again = callbackParams(await authorize(spa, body.login_ticket!, jar));
    assert.equal(again.get('error'), 'access_denied');
    assert.equal(again.get('error_description'), 'Invalid or expired login ticket.');
  });

  it('answers the preflight with credentials allowed for the exact origin, never *', async () => {
    const res = await t.app.inject({
      method: 'OPTIONS',
      url: '/co/authenticate',
      headers: { host: DOMAIN, origin: APP, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, auth0-client' },
    });
    assert.equal(res.statusCode, 204);
    assert.equal(res.headers['access-control-allow-origin'], APP);
    assert.equal(res.headers['access-control-allow-credentials'], 'true');
    assert.equal(res.headers['access-control-allow-headers'], 'content-type, auth0-client');
  });

  it('refuses another origin with the bare 403 and no CORS headers, and a request without an origin', async () => {
    const res = await authenticate(loginBody(spa), { origin: 'https://evil.example.net' });
    assert.equal(res.statusCode, 403);
    assert.equal(res.body, 'Origin https://evil.example.net is not allowed.');
    assert.equal(res.headers['access-control-allow-origin'], undefined);
    assert.equal(res.headers['set-cookie'], undefined);
    const none = await authenticate(loginBody(spa), {});
    assert.equal(none.statusCode, 403);
    assert.equal(none.headers['set-cookie'], undefined);
  });

  it('refuses a client without cross_origin_authentication: 401 unauthorized_client, no CORS headers', async () => {
    const res = await authenticate(loginBody(disabled));
    assert.deepEqual([res.statusCode, res.json()], [401, { error: 'unauthorized_client', error_description: 'Cross origin login not allowed.' }]);
    assert.equal(res.headers['access-control-allow-origin'], undefined);
    const unknown = await authenticate(loginBody(disabled, { client_id: 'no-such-client' }));
    assert.equal(unknown.statusCode, 401);
  });

  it('refuses an unknown credential type with 400 unsupported_credential_type', async () => {
    const res = await authenticate(loginBody(spa, { credential_type: 'http://example.com/other' }));
    assert.deepEqual([res.statusCode, res.json()], [400, { error: 'unsupported_credential_type', error_description: 'Unknown credential type parameter.' }]);
  });

  it('answers a wrong password with 403 access_denied and counts it towards brute-force protection', async () => {
    const body = loginBody(spa, { username: 'mallory@example.com' });
    for (let i = 0; i < MAX_FAILURES; i++) {
      const res = await authenticate({ ...body, password: `wrong-${i}` }, { origin: APP }, '10.2.0.1');
      assert.deepEqual([res.statusCode, res.json()], [403, { error: 'access_denied', error_description: 'Wrong email or password.' }]);
      assert.equal(res.headers['access-control-allow-origin'], APP, 'the page can read the refusal');
    }
    const blocked = await authenticate(body, { origin: APP }, '10.2.0.1');
    assert.equal(blocked.statusCode, 429);
    assert.equal((blocked.json() as { error: string }).error, 'too_many_attempts');
    const unknownUser = await authenticate({ ...body, username: 'nobody@example.com' }, { origin: APP }, '10.2.0.2');
    assert.deepEqual([unknownUser.statusCode, unknownUser.json()], [403, { error: 'access_denied', error_description: 'Wrong email or password.' }]);
    assert.equal((await authenticate(body, { origin: APP }, '10.2.0.3')).statusCode, 200, 'another address is not blocked');
  });

  it('refuses a ticket at /authorize for another client, another realm, or after it expired', async () => {
    const { ticket, jar } = await login();
    const otherClient = callbackParams(await authorize(other, ticket.login_ticket, jar));
    assert.deepEqual([otherClient.get('error'), otherClient.get('error_description')], ['access_denied', 'The login ticket was issued to another client.']);
    const otherRealm = callbackParams(await authorize(spa, ticket.login_ticket, jar, { realm: 'other-db' }));
    assert.equal(otherRealm.get('error_description'), 'The login ticket was issued for another connection.');
    const forged = callbackParams(await authorize(spa, `${ticket.login_ticket.slice(0, -4)}AAAA`, jar));
    assert.equal(forged.get('error_description'), 'Invalid or expired login ticket.');

    const expired = await withClockAdvanced(t, (LIFETIMES.login_ticket.seconds + 1) * 1000, () => authorize(spa, ticket.login_ticket, jar));
    assert.equal(callbackParams(expired).get('error_description'), 'Invalid or expired login ticket.');
  });

  it('sends a browser without the verifier cookie to the verification page, which sets it through POST /co/verify', async () => {
    const { ticket } = await login();
    const jar = new Jar();
    const page = await authorize(spa, ticket.login_ticket, jar);
    assert.equal(page.statusCode, 200, page.body);
    assert.match(page.headers['content-security-policy'] as string, new RegExp(`frame-src ${APP};`));
    assert.ok(page.body.includes(`src="${LOC}#origin=${encodeURIComponent(`https://${DOMAIN}`)}"`), page.body);
    assert.ok(page.body.includes(`data-co-id="${ticket.co_id}"`));
    jar.take(page);
    const form = { authorize: hidden(page.body, 'authorize').replaceAll('&amp;', '&'), csrf_token: hidden(page.body, 'csrf_token') };
    const post = (fields: Record<string, string>, cookie = jar.header()) =>
      t.app.inject({ method: 'POST', url: '/co/verify', headers: { host: DOMAIN, 'content-type': 'application/x-www-form-urlencoded', cookie }, payload: new URLSearchParams(fields).toString() });

    assert.equal((await post({ ...form, co_verifier: 'not-the-verifier' })).statusCode, 400, 'a wrong verifier');
    const csrf = await post({ ...form, co_verifier: ticket.co_verifier }, '');
    assert.equal(csrf.statusCode, 403, csrf.body);
    const odd = await post({ ...form, authorize: `${form.authorize}&x=%0D%0ASet-Cookie:%20a=b\r\n`, co_verifier: ticket.co_verifier });
    assert.equal(odd.statusCode, 302, 'line breaks in the carried query are re-encoded, never a 500');
    assert.doesNotMatch(odd.headers.location as string, /[\r\n]/);
    const verified = await post({ ...form, co_verifier: ticket.co_verifier });
    assert.equal(verified.statusCode, 302, verified.body);
    assert.ok((verified.headers.location as string).startsWith('/authorize?'));
    jar.take(verified);
    const done = await t.app.inject({ method: 'GET', url: verified.headers.location as string, headers: { host: DOMAIN, cookie: jar.header() } });
    assert.ok(callbackParams(done).get('code'));
  });

  it('answers /passwordless/start, /dbconnections/signup and change_password for the web origin without credentials, and refuses another origin', async () => {
    const post = (url: string, body: Record<string, unknown>, origin: string) =>
      t.app.inject({ method: 'POST', url, headers: { host: DOMAIN, 'content-type': 'application/json', origin }, payload: body });
    const calls: [string, Record<string, unknown>][] = [
      ['/passwordless/start', { client_id: spa.client_id, connection: 'email', email: 'pat@example.com', send: 'code' }],
      ['/dbconnections/signup', { client_id: spa.client_id, connection: REALM, email: 'newcomer@example.com', password: 'Sunny-Meadow-42' }],
      ['/dbconnections/change_password', { client_id: spa.client_id, connection: REALM, email: 'carol@example.com' }],
    ];
    for (const [url, body] of calls) {
      const refused = await post(url, body, 'https://evil.example.net');
      assert.deepEqual([refused.statusCode, refused.body], [403, 'Origin https://evil.example.net is not allowed.'], url);
      assert.equal(refused.headers['access-control-allow-origin'], undefined, url);
      const allowed = await post(url, body, APP);
      assert.equal(allowed.statusCode, 200, `${url}: ${allowed.body}`);
      assert.equal(allowed.headers['access-control-allow-origin'], APP, url);
      assert.equal(allowed.headers['access-control-allow-credentials'], undefined, `${url}: no credentials`);
      const preflight = await t.app.inject({ method: 'OPTIONS', url, headers: { host: DOMAIN, origin: APP, 'access-control-request-method': 'POST' } });
      assert.equal(preflight.statusCode, 204, url);
      assert.equal(preflight.headers['access-control-allow-credentials'], undefined, url);
    }
  });

  it('refuses a wrong passwordless code at /co/authenticate with 403 access_denied', async () => {
    const res = await authenticate({ client_id: spa.client_id, username: 'pat@example.com', otp: '000000', realm: 'email', credential_type: 'http://auth0.com/oauth/grant-type/passwordless/otp' });
    assert.deepEqual([res.statusCode, res.json()], [403, { error: 'access_denied', error_description: 'Wrong email or verification code.' }]);
  });
});
