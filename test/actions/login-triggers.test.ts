/**
 * post-login at the end of an interactive login, through app.inject on the
 * real app, real sandbox processes and the real database: the claims the
 * actions set travel with the authorization code into the tokens; a deny is
 * the authorization error `access_denied` at the callback;
 * `api.multifactor.enable('any')` sends a user without a second factor to
 * enrol one before the code is issued.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { Secret, TOTP } from 'otpauth';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, DOMAIN, tokenRequest, type TestApp } from '../helpers/app.js';
import { bindActions } from '../helpers/actions.js';
import { hidden, Jar } from '../helpers/browser.js';
import { insertClient, type TestClient } from '../helpers/fixtures.js';

const REALM = 'Username-Password-Authentication';
const PASSWORD = 'Correct horse battery staple 1';
const CALLBACK = 'https://app.example.com/callback';

describe('post-login in the authorization code flow', () => {
  let t: TestApp;
  let web: TestClient;

  async function get(url: string, jar: Jar): Promise<LightMyRequestResponse> {
    const res = await t.app.inject({ method: 'GET', url, headers: { host: DOMAIN, cookie: jar.header() } });
    jar.take(res);
    return res;
  }

  async function post(url: string, form: Record<string, string>, jar: Jar): Promise<LightMyRequestResponse> {
    const res = await t.app.inject({ method: 'POST', url, headers: { host: DOMAIN, 'content-type': 'application/x-www-form-urlencoded', cookie: jar.header() }, payload: new URLSearchParams(form).toString() });
    jar.take(res);
    return res;
  }

  /** /authorize, the login page, the password: the response after the login. */
  async function login(jar: Jar, email: string): Promise<LightMyRequestResponse> {
    const start = await get(`/authorize?${new URLSearchParams({ client_id: web.client_id, redirect_uri: CALLBACK, response_type: 'code', scope: 'openid profile', state: 'st' })}`, jar);
    assert.equal(start.statusCode, 302, start.body);
    const page = await get(start.headers.location as string, jar);
    assert.equal(page.statusCode, 200, page.body);
    return post('/login', { state: hidden(page.body, 'state'), csrf_token: hidden(page.body, 'csrf_token'), username: email, password: PASSWORD }, jar);
  }

  function callbackParams(res: LightMyRequestResponse): URLSearchParams {
    assert.equal(res.statusCode, 302, res.body);
    const location = res.headers.location as string;
    assert.ok(location.startsWith(`${CALLBACK}?`), location);
    return new URL(location).searchParams;
  }

  before(async () => {
    t = await createTestApp();
    web = await insertClient(t, { grant_types: ['authorization_code'], config: { callbacks: [CALLBACK] } });
    const conn = await t.management('POST', '/api/v2/connections', { body: { name: REALM, strategy: 'auth0', enabled_clients: [web.client_id] } });
    assert.equal(conn.statusCode, 201, conn.body);
    for (const email of ['alice@example.com', 'bob@example.com', 'carol@example.com']) {
      const user = await t.management('POST', '/api/v2/users', { body: { connection: REALM, email, password: PASSWORD } });
      assert.equal(user.statusCode, 201, user.body);
    }
  });
  after(() => t.close());

  it("the code's tokens carry the claims the actions set", async () => {
    await bindActions(t, 'post-login', [
      {
        name: 'claims',
        code: `exports.onExecutePostLogin = async (event, api) => {
          api.idToken.setCustomClaim('https://example.com/login', event.transaction.protocol + ' ' + event.request.hostname);
          api.idToken.setCustomClaim('nonce', 'forged');
        };`,
      },
    ]);
    const params = callbackParams(await login(new Jar(), 'alice@example.com'));
    const exchanged = await tokenRequest(t.app, { grant_type: 'authorization_code', client_id: web.client_id, client_secret: web.client_secret, code: params.get('code')!, redirect_uri: CALLBACK });
    assert.equal(exchanged.statusCode, 200, exchanged.body);
    const id = decodeJwt((exchanged.json() as { id_token: string }).id_token);
    assert.equal(id['https://example.com/login'], `oidc-basic-profile ${DOMAIN}`);
    assert.equal(id.nonce, undefined);
  });

  it('api.access.deny answers the callback with access_denied and the reason; no code', async () => {
    await bindActions(t, 'post-login', [{ name: 'deny', code: "exports.onExecutePostLogin = async (event, api) => { if (event.user.email.startsWith('bob')) api.access.deny('Bob may not log in'); };" }]);
    const params = callbackParams(await login(new Jar(), 'bob@example.com'));
    assert.equal(params.get('error'), 'access_denied');
    assert.equal(params.get('error_description'), 'Bob may not log in');
    assert.equal(params.get('state'), 'st');
    assert.equal(params.get('code'), null);
  });

  it("api.multifactor.enable('any') with no MFA factor enabled fails the login", async () => {
    await bindActions(t, 'post-login', [{ name: 'mfa', code: "exports.onExecutePostLogin = async (event, api) => { api.multifactor.enable('any'); };" }]);
    const params = callbackParams(await login(new Jar(), 'carol@example.com'));
    assert.equal(params.get('error'), 'access_denied');
    assert.match(params.get('error_description')!, /requires a second factor/);
  });

  it("api.multifactor.enable('any') sends a user without a second factor to enrol one first", async () => {
    const otp = await t.management('PUT', '/api/v2/guardian/factors/otp', { body: { enabled: true } });
    assert.equal(otp.statusCode, 200, otp.body);
    const jar = new Jar();
    const res = await login(jar, 'carol@example.com');
    assert.equal(res.statusCode, 302, res.body);
    const location = res.headers.location as string;
    assert.ok(!location.startsWith(CALLBACK), `no code before the second factor: ${location}`);
    const page = await get(location, jar);
    assert.equal(page.statusCode, 200, page.body);
    const secret = /<code id="secret">([A-Z2-7]{32})<\/code>/.exec(page.body)![1]!;
    const state = hidden(page.body, 'state');
    const enrolled = await post('/mfa', { state, csrf_token: hidden(page.body, 'csrf_token'), method: 'otp', code: new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: t.ctx.now() }) }, jar);
    // Without the recovery-code factor no code is shown: the login goes on at once.
    const params = callbackParams(enrolled.statusCode === 302 ? enrolled : await get(`/mfa?state=${encodeURIComponent(state)}`, jar));
    const exchanged = await tokenRequest(t.app, { grant_type: 'authorization_code', client_id: web.client_id, client_secret: web.client_secret, code: params.get('code')!, redirect_uri: CALLBACK });
    assert.equal(exchanged.statusCode, 200, exchanged.body);
    assert.deepEqual(decodeJwt((exchanged.json() as { id_token: string }).id_token).amr, ['mfa'], 'the actions ran again and saw the second factor');
  });
});
