/**
 * The device authorization flow (RFC 8628) through app.inject on the real app
 * and database: POST /oauth/device/code, the /activate pages with the hosted
 * login, and the device_code grant. Refusals: polled too fast, after expiry
 * (expired_token once, then invalid_grant), by another client, denied on the
 * page, a client without the grant, user codes guessed past the limit.
 * Time moves with the app's clock, never by sleeping.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from 'jose';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, DOMAIN, tokenRequest, withClockAdvanced, type TestApp } from '../helpers/app.js';
import { Browser, hidden } from '../helpers/browser.js';

const REALM = 'device-users';
const PASSWORD = 'Correct horse battery staple 1';
const API = 'https://tv-api.example.com';
const GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

interface DeviceAuthorization {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete: string;
  expires_in: number;
  interval: number;
}

describe('device authorization flow', () => {
  let t: TestApp;
  let tv: string;
  let otherTv: string;
  let webOnly: string;
  let jwks: ReturnType<typeof createLocalJWKSet>;

  const form = (url: string, body: Record<string, string>, ip = '127.0.0.1') =>
    t.app.inject({ method: 'POST', url, remoteAddress: ip, headers: { host: DOMAIN, 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams(body).toString() });

  async function start(clientId = tv, extra: Record<string, string> = {}): Promise<DeviceAuthorization> {
    const res = await form('/oauth/device/code', { client_id: clientId, scope: 'openid profile offline_access read:shows', audience: API, ...extra });
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as DeviceAuthorization;
  }

  const poll = (deviceCode: string, clientId = tv) => tokenRequest(t.app, { grant_type: GRANT, client_id: clientId, device_code: deviceCode }, { form: true });

  function refusal(res: LightMyRequestResponse, status: number, error: string): string {
    assert.equal(res.statusCode, status, res.body);
    const body = res.json() as { error: string; error_description: string };
    assert.equal(body.error, error);
    return body.error_description;
  }

  /** The user at verification_uri_complete: confirms the code, logs in; the final page. */
  async function approve(browser: Browser, authorization: DeviceAuthorization, decision = 'confirm'): Promise<LightMyRequestResponse> {
    const entry = await browser.get(new URL(authorization.verification_uri_complete).pathname + new URL(authorization.verification_uri_complete).search);
    assert.equal(entry.statusCode, 200, entry.body);
    const csrf = hidden(entry.body, 'csrf_token');
    const confirm = await browser.post('/activate', { csrf_token: csrf, user_code: hidden(entry.body, 'user_code') });
    assert.equal(confirm.statusCode, 200, confirm.body);
    assert.ok(confirm.body.includes(authorization.user_code), 'the code is shown again to be checked');
    let res = await browser.post('/activate', { csrf_token: hidden(confirm.body, 'csrf_token'), user_code: authorization.user_code, decision });
    if (decision !== 'confirm') return res;
    if (res.statusCode === 302 && (res.headers.location as string).startsWith('/login')) {
      const login = await browser.get(res.headers.location as string);
      res = await browser.post('/login', { state: hidden(login.body, 'state'), csrf_token: hidden(login.body, 'csrf_token'), username: 'viewer@example.com', password: PASSWORD });
    }
    while (res.statusCode === 302) res = await browser.get(new URL(res.headers.location as string, `https://${DOMAIN}`).pathname + new URL(res.headers.location as string, `https://${DOMAIN}`).search);
    return res;
  }

  before(async () => {
    t = await createTestApp();
    const api = async (method: string, url: string, body: unknown) => {
      const res = await t.management(method, url, { body });
      assert.ok(res.statusCode < 300, res.body);
      return res.json() as Record<string, unknown>;
    };
    await api('POST', '/api/v2/resource-servers', { identifier: API, scopes: [{ value: 'read:shows' }], allow_offline_access: true, skip_consent_for_verifiable_first_party_clients: true });
    const device = { app_type: 'native', is_first_party: true, token_endpoint_auth_method: 'none', grant_types: [GRANT, 'refresh_token'] };
    tv = (await api('POST', '/api/v2/clients', { name: 'Living room TV', ...device })).client_id as string;
    otherTv = (await api('POST', '/api/v2/clients', { name: 'Bedroom TV', ...device })).client_id as string;
    webOnly = (await api('POST', '/api/v2/clients', { name: 'Web', app_type: 'spa', token_endpoint_auth_method: 'none', grant_types: ['authorization_code'] })).client_id as string;
    await api('POST', '/api/v2/connections', { name: REALM, strategy: 'auth0', enabled_clients: [tv, otherTv] });
    await api('POST', '/api/v2/users', { connection: REALM, email: 'viewer@example.com', password: PASSWORD, name: 'Viewer' });
    jwks = createLocalJWKSet((await t.app.inject({ method: 'GET', url: '/.well-known/jwks.json', headers: { host: DOMAIN } })).json() as JSONWebKeySet);
  });
  after(() => t.close());

  it('answers the device authorization request as the service does, and discovery names the endpoint', async () => {
    const authorization = await start();
    assert.match(authorization.user_code, /^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
    assert.equal(authorization.verification_uri, `https://${DOMAIN}/activate`);
    assert.equal(authorization.verification_uri_complete, `https://${DOMAIN}/activate?user_code=${authorization.user_code}`);
    assert.equal(authorization.expires_in, 900);
    assert.equal(authorization.interval, 5);
    assert.ok(authorization.device_code.length >= 43);
    const discovery = (await t.app.inject({ method: 'GET', url: '/.well-known/openid-configuration', headers: { host: DOMAIN } })).json() as Record<string, unknown>;
    assert.equal(discovery.device_authorization_endpoint, `https://${DOMAIN}/oauth/device/code`);
    assert.equal(discovery.backchannel_logout_supported, true);
    assert.equal(discovery.backchannel_logout_session_supported, true);
    assert.ok((discovery.grant_types_supported as string[]).includes(GRANT));
  });

  it('refuses a client without the device_code grant, and an unknown audience', async () => {
    refusal(await form('/oauth/device/code', { client_id: webOnly }), 403, 'unauthorized_client');
    refusal(await form('/oauth/device/code', { client_id: tv, audience: 'https://nope.example.com' }), 403, 'access_denied');
  });

  it('pending, then too fast, then approved on /activate: tokens with a refresh token; the code works once', async () => {
    const authorization = await start();
    assert.equal(refusal(await poll(authorization.device_code), 403, 'authorization_pending'), 'User has yet to authorize device code.');
    assert.equal(refusal(await poll(authorization.device_code), 429, 'slow_down'), 'You are polling faster than the specified interval of 5 seconds.');
    const done = await approve(new Browser(t), authorization);
    assert.equal(done.statusCode, 200, done.body);
    assert.match(done.body, /you(?:'|&#39;)re all set/);
    await withClockAdvanced(t, 5_000, async () => {
      const res = await poll(authorization.device_code);
      assert.equal(res.statusCode, 200, res.body);
      const tokens = res.json() as { access_token: string; id_token: string; refresh_token: string; scope: string };
      assert.ok(tokens.refresh_token);
      const access = (await jwtVerify(tokens.access_token, jwks, { audience: API })).payload;
      assert.equal(access.azp, tv);
      assert.equal(access.scope, 'openid profile read:shows offline_access');
      const id = (await jwtVerify(tokens.id_token, jwks, { audience: tv })).payload;
      assert.equal(id.name, 'Viewer');
    });
    await withClockAdvanced(t, 10_000, async () => refusal(await poll(authorization.device_code), 403, 'invalid_grant'));
  });

  it('refuses the device code of another client', async () => {
    const authorization = await start();
    refusal(await poll(authorization.device_code, otherTv), 403, 'invalid_grant');
    refusal(await poll('not-a-device-code'), 403, 'invalid_grant');
  });

  it('a request cancelled on /activate is access_denied', async () => {
    const authorization = await start();
    const cancelled = await approve(new Browser(t), authorization, 'cancel');
    assert.match(cancelled.body, /cancelled/);
    assert.equal(refusal(await poll(authorization.device_code), 403, 'access_denied'), 'User cancelled the confirmation prompt.');
  });

  it('after expiry: expired_token once, then invalid_grant; the code no longer works on /activate', async () => {
    const authorization = await start();
    await withClockAdvanced(t, 901_000, async () => {
      refusal(await poll(authorization.device_code), 403, 'expired_token');
      refusal(await poll(authorization.device_code), 403, 'invalid_grant');
      const browser = new Browser(t);
      const entry = await browser.get('/activate');
      const res = await browser.post('/activate', { csrf_token: hidden(entry.body, 'csrf_token'), user_code: authorization.user_code });
      assert.equal(res.statusCode, 400);
      assert.match(res.body, /invalid or has expired/);
    });
  });

  it('limits user code guesses per address: past 10, even the right code is refused for a while', async () => {
    const authorization = await start();
    const browser = new Browser(t);
    const entry = await browser.get('/activate');
    const csrf = hidden(entry.body, 'csrf_token');
    const attempt = (code: string, ip: string) =>
      t.app.inject({
        method: 'POST',
        url: '/activate',
        remoteAddress: ip,
        headers: { host: DOMAIN, 'content-type': 'application/x-www-form-urlencoded', cookie: browser.jar.header() },
        payload: new URLSearchParams({ csrf_token: csrf, user_code: code }).toString(),
      });
    for (let i = 0; i < 10; i++) assert.equal((await attempt('BBBB-BBBB', '192.0.2.7')).statusCode, 400);
    const blocked = await attempt(authorization.user_code, '192.0.2.7');
    assert.equal(blocked.statusCode, 429);
    assert.match(blocked.body, /Too many attempts/);
    assert.equal((await attempt(authorization.user_code, '192.0.2.8')).statusCode, 200, 'another address is not held back');
  });

  it('refuses a form without its CSRF token', async () => {
    const authorization = await start();
    const browser = new Browser(t);
    await browser.get('/activate');
    const res = await browser.post('/activate', { user_code: authorization.user_code, decision: 'confirm' });
    assert.equal(res.statusCode, 403);
  });
});
