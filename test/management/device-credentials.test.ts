/**
 * /api/v2/device-credentials on the real app and database: a public key
 * registered by its user's own token (password-realm grant for the
 * Management API audience), listed beside the user's refresh tokens, deleted;
 * a refresh token deleted as a credential is refused at /oauth/token; and
 * the refusals: 400 bad input, 403 a machine token creating or a user
 * deleting another's credential or a missing scope, 409 a second key for the
 * same device.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, DOMAIN, tokenRequest, type TestApp } from '../helpers/app.js';
import { insertClient, type TestClient } from '../helpers/fixtures.js';

const REALM = 'device-users';
const PASSWORD = 'Correct horse battery staple 1';
const KEY = Buffer.from('-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n-----END PUBLIC KEY-----').toString('base64');

describe('/api/v2/device-credentials', () => {
  let t: TestApp;
  let app: TestClient;
  const users: Record<string, string> = {};

  const call = (method: string, url: string, options: { token?: string; body?: unknown } = {}) => t.management(method, url, options);

  /** A user's tokens (password-realm): for the Management API, or with `management: false` for /userinfo (and a refresh token). */
  async function userTokens(email: string, scope: string, management = true): Promise<{ access_token: string; refresh_token?: string }> {
    const res = await tokenRequest(t.app, {
      grant_type: 'http://auth0.com/oauth/grant-type/password-realm',
      client_id: app.client_id,
      client_secret: app.client_secret,
      username: email,
      password: PASSWORD,
      realm: REALM,
      ...(management && { audience: `https://${DOMAIN}/api/v2/` }),
      scope,
    });
    assert.equal(res.statusCode, 200, res.body);
    return res.json() as { access_token: string; refresh_token?: string };
  }

  before(async () => {
    t = await createTestApp();
    app = await insertClient(t, { name: 'Native app', app_type: 'native', grant_types: ['http://auth0.com/oauth/grant-type/password-realm', 'refresh_token'] });
    assert.equal((await call('POST', '/api/v2/connections', { body: { name: REALM, strategy: 'auth0', enabled_clients: [app.client_id] } })).statusCode, 201);
    for (const email of ['owner@example.com', 'other@example.com']) {
      const res = await call('POST', '/api/v2/users', { body: { connection: REALM, email, password: PASSWORD } });
      assert.equal(res.statusCode, 201, res.body);
      users[email] = (res.json() as { user_id: string }).user_id;
    }
  });
  after(() => t.close());

  it('a user registers a public key for its device; it is listed beside the refresh tokens, and deleted', async () => {
    const { access_token: token } = await userTokens('owner@example.com', 'create:current_user_device_credentials delete:current_user_device_credentials');
    const created = await call('POST', '/api/v2/device-credentials', { token, body: { device_name: 'Pixel 9', type: 'public_key', value: KEY, device_id: 'a1b2c3d4' } });
    assert.equal(created.statusCode, 201, created.body);
    const { id } = created.json() as { id: string };
    assert.match(id, /^dcr_[A-Za-z0-9]{16}$/);

    // The same device again: 409.
    const again = await call('POST', '/api/v2/device-credentials', { token, body: { device_name: 'Pixel 9', type: 'public_key', value: KEY, device_id: 'a1b2c3d4' } });
    assert.equal(again.statusCode, 409, again.body);
    assert.equal((again.json() as { message: string }).message, 'A public key already exists for the device.');

    const owner = encodeURIComponent(users['owner@example.com']!);
    const keys = (await call('GET', `/api/v2/device-credentials?user_id=${owner}&type=public_key`)).json() as unknown[];
    assert.deepEqual(keys, [{ id, device_name: 'Pixel 9', device_id: 'a1b2c3d4', type: 'public_key', user_id: users['owner@example.com'], client_id: app.client_id }]);

    const totals = (await call('GET', `/api/v2/device-credentials?user_id=${owner}&type=public_key&include_totals=true&fields=id`)).json();
    assert.deepEqual(totals, { start: 0, limit: 50, total: 1, device_credentials: [{ id }] });

    // Another user's token cannot delete it.
    const { access_token: otherToken } = await userTokens('other@example.com', 'delete:current_user_device_credentials');
    const stranger = await call('DELETE', `/api/v2/device-credentials/${id}`, { token: otherToken });
    assert.equal(stranger.statusCode, 403, stranger.body);
    assert.equal((stranger.json() as { message: string }).message, 'User to be acted on does not match subject in bearer token.');

    assert.equal((await call('DELETE', `/api/v2/device-credentials/${id}`, { token })).statusCode, 204);
    assert.deepEqual((await call('GET', `/api/v2/device-credentials?user_id=${owner}&type=public_key`)).json(), []);
  });

  it('lists refresh tokens as credentials; deleting one revokes it', async () => {
    const tokens = await userTokens('other@example.com', 'openid offline_access', false);
    assert.ok(tokens.refresh_token);
    const other = encodeURIComponent(users['other@example.com']!);
    const listed = (await call('GET', `/api/v2/device-credentials?user_id=${other}&type=refresh_token`)).json() as { id: string; type: string; client_id: string }[];
    assert.equal(listed.length, 1);
    assert.equal(listed[0]!.type, 'refresh_token');
    assert.equal(listed[0]!.client_id, app.client_id);
    // Paging without a type asks for refresh tokens, as the document says.
    assert.deepEqual(((await call('GET', `/api/v2/device-credentials?user_id=${other}&per_page=10`)).json() as { id: string }[]).map((c) => c.id), [listed[0]!.id]);

    assert.equal((await call('DELETE', `/api/v2/device-credentials/${listed[0]!.id}`)).statusCode, 204);
    const refused = await tokenRequest(t.app, { grant_type: 'refresh_token', client_id: app.client_id, client_secret: app.client_secret, refresh_token: tokens.refresh_token });
    assert.equal(refused.statusCode, 403, refused.body);
    // Unknown ids are accepted (the document has no 404 for the deletion).
    assert.equal((await call('DELETE', '/api/v2/device-credentials/dcr_nothing')).statusCode, 204);
  });

  it('refuses bad input with 400, a machine token creating and a missing scope with 403', async () => {
    const { access_token: token } = await userTokens('owner@example.com', 'create:current_user_device_credentials');
    const bodies: unknown[] = [
      {},
      { device_name: 'x', type: 'refresh_token', value: KEY, device_id: 'ab' },
      { device_name: 'x', type: 'public_key', value: 'not base64!', device_id: 'ab' },
      { device_name: 'x', type: 'public_key', value: KEY, device_id: 'not-hex-zz' },
      { device_name: 'x', type: 'public_key', value: KEY, device_id: 'a'.repeat(37) },
      { device_name: 'x'.repeat(257), type: 'public_key', value: KEY, device_id: 'ab' },
      { device_name: 'x', type: 'public_key', value: KEY, device_id: 'ab', extra: true },
      { device_name: 'x', type: 'public_key', value: KEY, device_id: 'ab', client_id: 'no-such-client' },
    ];
    for (const body of bodies) {
      const res = await call('POST', '/api/v2/device-credentials', { token, body });
      assert.equal(res.statusCode, 400, `${JSON.stringify(body)}: ${res.body}`);
      assert.equal((res.json() as { errorCode: string }).errorCode, 'invalid_body');
    }
    for (const url of ['/api/v2/device-credentials?type=rsa', '/api/v2/device-credentials?per_page=101', '/api/v2/device-credentials?type=refresh_token', '/api/v2/device-credentials?page=20&per_page=50']) {
      const res = await call('GET', url);
      assert.equal(res.statusCode, 400, `${url}: ${res.body}`);
      assert.equal((res.json() as { statusCode: number }).statusCode, 400);
    }

    // The admin's machine token holds no current_user scope: 403.
    const machine = await call('POST', '/api/v2/device-credentials', { body: { device_name: 'x', type: 'public_key', value: KEY, device_id: 'ab' } });
    assert.equal(machine.statusCode, 403, machine.body);
    const limited = await t.managementToken('read:users');
    for (const [method, url] of [['GET', '/api/v2/device-credentials'], ['DELETE', '/api/v2/device-credentials/dcr_x']] as const) {
      const res = await call(method, url, { token: limited });
      assert.equal(res.statusCode, 403, `${method} ${url}: ${res.body}`);
      assert.equal((res.json() as { errorCode: string }).errorCode, 'insufficient_scope');
    }
  });
});
