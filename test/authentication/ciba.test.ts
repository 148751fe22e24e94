/**
 * CIBA (OpenID CIBA Core 1.0, poll mode) through app.inject on the real app
 * and database: POST /bc-authorize, the mailed approval link's page, and the
 * CIBA grant. Refusals: an unknown user, no `openid`, a bad binding message
 * or expiry, a client without the grant or without the email channel, a
 * denied request, an expired one, another client's request, polling too fast.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from 'jose';
import type { LightMyRequestResponse } from 'fastify';
import { readOutbox } from '../../src/platform/mail/index.js';
import { createTestApp, DOMAIN, tokenRequest, withClockAdvanced, type TestApp } from '../helpers/app.js';
import { Browser, hidden } from '../helpers/browser.js';

const GRANT = 'urn:openid:params:grant-type:ciba';
const API = 'https://bank.example.com';

describe('CIBA', () => {
  let t: TestApp;
  let bank: { id: string; secret: string };
  let other: { id: string; secret: string };
  let pushOnly: { id: string; secret: string };
  let userId: string;
  let jwks: ReturnType<typeof createLocalJWKSet>;
  const hint = (sub: string, iss = `https://${DOMAIN}/`) => JSON.stringify({ format: 'iss_sub', iss, sub });

  const bcAuthorize = (client: { id: string; secret: string }, body: Record<string, string>) =>
    t.app.inject({
      method: 'POST',
      url: '/bc-authorize',
      headers: { host: DOMAIN, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ client_id: client.id, client_secret: client.secret, ...body }).toString(),
    });
  const start = async (body: Record<string, string> = {}) => {
    const res = await bcAuthorize(bank, { scope: 'openid profile read:balance', login_hint: hint(userId), binding_message: 'Transfer 42: ok', audience: API, ...body });
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as { auth_req_id: string; expires_in: number; interval: number };
  };
  const poll = (authReqId: string, client = bank) => tokenRequest(t.app, { grant_type: GRANT, auth_req_id: authReqId, client_id: client.id, client_secret: client.secret });

  function refusal(res: LightMyRequestResponse, status: number, error: string): string {
    assert.equal(res.statusCode, status, res.body);
    const body = res.json() as { error: string; error_description: string };
    assert.equal(body.error, error);
    return body.error_description;
  }

  /** The approval link of the newest mail to the user. */
  function approvalLink(): string {
    const mail = readOutbox(t.ctx).filter((m) => m.to === 'customer@example.com').at(-1)!;
    const link = /https:\/\/\S+\/ciba\/approve\?ticket=\S+/.exec(mail.text)![0];
    return new URL(link).pathname + new URL(link).search;
  }

  async function decide(decision: 'approve' | 'deny'): Promise<LightMyRequestResponse> {
    const browser = new Browser(t);
    const page = await browser.get(approvalLink());
    assert.equal(page.statusCode, 200, page.body);
    assert.match(page.body, /Transfer 42: ok/);
    return browser.post('/ciba/approve', { ticket: hidden(page.body, 'ticket'), csrf_token: hidden(page.body, 'csrf_token'), decision });
  }

  before(async () => {
    t = await createTestApp();
    const api = async (method: string, url: string, body: unknown) => {
      const res = await t.management(method, url, { body });
      assert.ok(res.statusCode < 300, res.body);
      return res.json() as Record<string, unknown>;
    };
    await api('POST', '/api/v2/resource-servers', { identifier: API, scopes: [{ value: 'read:balance' }] });
    const client = async (name: string, channels: string[]) => {
      const created = await api('POST', '/api/v2/clients', {
        name,
        app_type: 'regular_web',
        is_first_party: true,
        token_endpoint_auth_method: 'client_secret_post',
        grant_types: [GRANT],
        async_approval_notification_channels: channels,
      });
      return { id: created.client_id as string, secret: created.client_secret as string };
    };
    bank = await client('Call centre', ['email']);
    other = await client('Other', ['email']);
    pushOnly = await client('Push only', ['guardian-push']);
    await api('POST', '/api/v2/connections', { name: 'bank-users', strategy: 'auth0', enabled_clients: [bank.id] });
    userId = (await api('POST', '/api/v2/users', { connection: 'bank-users', email: 'customer@example.com', password: 'Correct horse battery staple 1', name: 'Customer' })).user_id as string;
    jwks = createLocalJWKSet((await t.app.inject({ method: 'GET', url: '/.well-known/jwks.json', headers: { host: DOMAIN } })).json() as JSONWebKeySet);
  });
  after(() => t.close());

  it('answers the request, mails the user, and issues tokens once the user approves', async () => {
    const request = await start();
    assert.deepEqual(Object.keys(request), ['auth_req_id', 'expires_in', 'interval']);
    assert.equal(request.expires_in, 300);
    assert.equal(request.interval, 5);
    assert.equal(refusal(await poll(request.auth_req_id), 400, 'authorization_pending'), 'The end-user authorization is pending');
    const fast = await poll(request.auth_req_id);
    assert.equal(refusal(fast, 400, 'slow_down'), 'You are polling faster than allowed. Try again in 10 seconds.');
    assert.equal((fast.json() as { interval: number }).interval, 10);
    assert.equal(fast.headers['retry-after'], '10');

    const done = await decide('approve');
    assert.equal(done.statusCode, 200);
    assert.match(done.body, /Request approved/);
    await withClockAdvanced(t, 5_000, async () => {
      const res = await poll(request.auth_req_id);
      assert.equal(res.statusCode, 200, res.body);
      const tokens = res.json() as { access_token: string; id_token: string; scope: string };
      const id = (await jwtVerify(tokens.id_token, jwks, { audience: bank.id, currentDate: new Date(t.ctx.now()) })).payload;
      assert.equal(id.sub, userId);
      assert.equal(id.name, 'Customer');
      assert.equal(typeof id.auth_time, 'number');
      const access = (await jwtVerify(tokens.access_token, jwks, { audience: API, currentDate: new Date(t.ctx.now()) })).payload;
      assert.equal(access.scope, 'openid profile read:balance');
    });
    // Spent, and the link is no longer valid.
    await withClockAdvanced(t, 10_000, async () => refusal(await poll(request.auth_req_id), 403, 'invalid_grant'));
    assert.equal((await new Browser(t).get(approvalLink())).statusCode, 400);
  });

  it('a denied request is access_denied; so is an expired one', async () => {
    const denied = await start();
    assert.match((await decide('deny')).body, /Request denied/);
    assert.match(refusal(await poll(denied.auth_req_id), 400, 'access_denied'), /denied the authorization request or it has been expired/);

    const expired = await start({ requested_expiry: '60' });
    assert.equal(expired.expires_in, 60);
    await withClockAdvanced(t, 61_000, async () => {
      refusal(await poll(expired.auth_req_id), 400, 'access_denied');
      assert.equal((await new Browser(t).get(approvalLink())).statusCode, 400, 'the link expired with the request');
    });
  });

  it('refuses an unknown user, a hint of another issuer, and a request without openid', async () => {
    assert.equal(refusal(await bcAuthorize(bank, { scope: 'openid', login_hint: hint('auth0|nobody'), binding_message: 'x' }), 400, 'unknown_user_id'), 'User ID is malformed or unknown');
    refusal(await bcAuthorize(bank, { scope: 'openid', login_hint: hint(userId, 'https://elsewhere.example.com/'), binding_message: 'x' }), 400, 'unknown_user_id');
    refusal(await bcAuthorize(bank, { scope: 'openid', login_hint: 'not json', binding_message: 'x' }), 400, 'unknown_user_id');
    assert.equal(refusal(await bcAuthorize(bank, { scope: 'profile', login_hint: hint(userId), binding_message: 'x' }), 400, 'invalid_request'), 'openid scope must be requested');
  });

  it('refuses bad binding messages and expiries, clients without the grant or the email channel, and other clients\' requests', async () => {
    refusal(await bcAuthorize(bank, { scope: 'openid', login_hint: hint(userId), binding_message: '<script>' }), 400, 'invalid_request');
    refusal(await bcAuthorize(bank, { scope: 'openid', login_hint: hint(userId), binding_message: 'x'.repeat(65) }), 400, 'invalid_request');
    refusal(await bcAuthorize(bank, { scope: 'openid', login_hint: hint(userId), binding_message: 'x', requested_expiry: '301' }), 400, 'invalid_request');
    refusal(await bcAuthorize(pushOnly, { scope: 'openid', login_hint: hint(userId), binding_message: 'x' }), 400, 'invalid_request');
    refusal(await bcAuthorize({ id: bank.id, secret: 'wrong' }, { scope: 'openid', login_hint: hint(userId), binding_message: 'x' }), 401, 'access_denied');
    const request = await start();
    refusal(await poll(request.auth_req_id, other), 403, 'invalid_grant');
  });

  it('is in discovery', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/.well-known/openid-configuration', headers: { host: DOMAIN } })).json() as Record<string, unknown>;
    assert.equal(doc.backchannel_authentication_endpoint, `https://${DOMAIN}/bc-authorize`);
    assert.deepEqual(doc.backchannel_token_delivery_modes_supported, ['poll']);
  });
});
