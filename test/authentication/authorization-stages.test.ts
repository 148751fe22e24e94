/**
 * The authorization-request family (/authorize, /oauth/par, /bc-authorize,
 * /oauth/device/code) reads its parameters through one stage table
 * (src/authentication/authorize/stages.ts): a named parameter sent twice is
 * refused at each endpoint, in its own shape (a page at /authorize, where
 * nothing is trusted yet; JSON at the others), and a parameter that is not
 * the endpoint's is ignored.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, DOMAIN, type TestApp } from '../helpers/app.js';

const CALLBACK = 'https://app.example.com/callback';
const CIBA_GRANT = 'urn:openid:params:grant-type:ciba';
const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

describe('authorization-request stages: parameters', () => {
  let t: TestApp;
  let web: { client_id: string; client_secret: string };
  let bank: { client_id: string; client_secret: string };
  let tv: string;
  let userId: string;

  const post = (url: string, payload: string) =>
    t.app.inject({ method: 'POST', url, headers: { host: DOMAIN, 'content-type': 'application/x-www-form-urlencoded' }, payload });
  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: { host: DOMAIN } });
  const query = (params: Record<string, string>) => new URLSearchParams(params).toString();

  before(async () => {
    t = await createTestApp();
    const api = async (url: string, body: unknown) => {
      const res = await t.management('POST', url, { body });
      assert.ok(res.statusCode < 300, res.body);
      return res.json() as Record<string, string>;
    };
    const created = await api('/api/v2/clients', { name: 'Web', app_type: 'regular_web', grant_types: ['authorization_code'], callbacks: [CALLBACK], token_endpoint_auth_method: 'client_secret_post' });
    web = { client_id: created.client_id!, client_secret: created.client_secret! };
    const banking = await api('/api/v2/clients', {
      name: 'Call centre',
      app_type: 'regular_web',
      token_endpoint_auth_method: 'client_secret_post',
      grant_types: [CIBA_GRANT],
      async_approval_notification_channels: ['email'],
    });
    bank = { client_id: banking.client_id!, client_secret: banking.client_secret! };
    tv = (await api('/api/v2/clients', { name: 'TV', app_type: 'native', token_endpoint_auth_method: 'none', grant_types: [DEVICE_GRANT] })).client_id!;
    await api('/api/v2/connections', { name: 'stage-users', strategy: 'auth0', enabled_clients: [bank.client_id] });
    userId = (await api('/api/v2/users', { connection: 'stage-users', email: 'stage@example.com', password: 'Correct horse battery staple 1' })).user_id!;
  });
  after(() => t.close());

  const authorizeQuery = () => query({ client_id: web.client_id, response_type: 'code', redirect_uri: CALLBACK, scope: 'openid', state: 's1' });
  const parBody = () => query({ client_id: web.client_id, client_secret: web.client_secret, response_type: 'code', redirect_uri: CALLBACK, scope: 'openid' });
  const cibaBody = () =>
    query({
      client_id: bank.client_id,
      client_secret: bank.client_secret,
      scope: 'openid',
      login_hint: JSON.stringify({ format: 'iss_sub', iss: `https://${DOMAIN}/`, sub: userId }),
      binding_message: 'Stage 1',
    });
  const deviceBody = () => query({ client_id: tv, scope: 'openid' });

  it('a parameter of the endpoint sent twice is refused at each of the four endpoints, in the endpoint\'s shape', async () => {
    const page = await get(`/authorize?${authorizeQuery()}&scope=profile`);
    assert.equal(page.statusCode, 400, page.body);
    assert.equal(page.headers.location, undefined, 'nothing is redirected');
    assert.match(String(page.headers['content-type']), /^text\/html/);
    assert.match(page.body, /Parameter scope must not be repeated/);

    for (const [url, body, name] of [
      ['/oauth/par', `${parBody()}&state=a&state=b`, 'state'],
      ['/bc-authorize', `${cibaBody()}&binding_message=again`, 'binding_message'],
      ['/oauth/device/code', `${deviceBody()}&audience=a&audience=b`, 'audience'],
      ['/oauth/device/code', `${deviceBody()}&client_id=${tv}`, 'client_id'],
    ] as const) {
      const res = await post(url, body);
      assert.equal(res.statusCode, 400, `${url}: ${res.body}`);
      assert.deepEqual(res.json(), { error: 'invalid_request', error_description: `Parameter ${name} must not be repeated` }, url);
    }
  });

  it('a parameter that is not the endpoint\'s is ignored, even repeated', async () => {
    const authorize = await get(`/authorize?${authorizeQuery()}&auth0Client=x&auth0Client=y`);
    assert.equal(authorize.statusCode, 302, authorize.body);
    assert.match(authorize.headers.location as string, /^\/login\?state=/);

    const pushed = await post('/oauth/par', `${parBody()}&foo=1&foo=2`);
    assert.equal(pushed.statusCode, 201, pushed.body);
    const uri = (pushed.json() as { request_uri: string }).request_uri;
    const fromPushed = await get(`/authorize?${query({ client_id: web.client_id, request_uri: uri })}`);
    assert.equal(fromPushed.statusCode, 302, fromPushed.body);
    assert.match(fromPushed.headers.location as string, /^\/login\?state=/);

    const ciba = await post('/bc-authorize', `${cibaBody()}&foo=1&foo=2`);
    assert.equal(ciba.statusCode, 200, ciba.body);
    const device = await post('/oauth/device/code', `${deviceBody()}&foo=1&foo=2`);
    assert.equal(device.statusCode, 200, device.body);
  });
});
