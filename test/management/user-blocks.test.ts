/**
 * GET and DELETE /api/v2/user-blocks?identifier= against blocks made by the
 * password-realm grant's brute-force protection.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MAX_FAILURES } from '../../src/authentication/brute-force.js';
import { createTestApp, DOMAIN, type TestApp } from '../helpers/app.js';
import { insertClient, type TestClient } from '../helpers/fixtures.js';

const REALM = 'Username-Password-Authentication';
const PASSWORD = 'correct horse battery staple';
const PASSWORD_REALM = 'http://auth0.com/oauth/grant-type/password-realm';

describe('/api/v2/user-blocks', () => {
  let t: TestApp;
  let client: TestClient;

  const login = (password: string, ip: string) =>
    t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      remoteAddress: ip,
      headers: { host: DOMAIN, 'content-type': 'application/json' },
      payload: { grant_type: PASSWORD_REALM, client_id: client.client_id, client_secret: client.client_secret, username: 'bob@example.com', password, realm: REALM },
    });

  before(async () => {
    t = await createTestApp();
    client = await insertClient(t, { grant_types: JSON.stringify([PASSWORD_REALM]) });
    assert.equal((await t.management('POST', '/api/v2/connections', { body: { name: REALM, strategy: 'auth0', enabled_clients: [client.client_id] } })).statusCode, 201);
    assert.equal((await t.management('POST', '/api/v2/users', { body: { connection: REALM, email: 'bob@example.com', password: PASSWORD } })).statusCode, 201);
  });
  after(() => t.close());

  it('lists the blocks of an identifier and DELETE unblocks it', async () => {
    const empty = await t.management('GET', '/api/v2/user-blocks?identifier=bob%40example.com');
    assert.equal(empty.statusCode, 200, empty.body);
    assert.deepEqual(empty.json(), { blocked_for: [] });

    for (const ip of ['10.1.1.1', '10.1.1.2']) {
      for (let i = 0; i < MAX_FAILURES; i++) assert.equal((await login('wrong', ip)).statusCode, 403);
      assert.equal((await login(PASSWORD, ip)).statusCode, 429);
    }

    const listed = await t.management('GET', '/api/v2/user-blocks?identifier=BOB%40example.com&consider_brute_force_enablement=true');
    assert.equal(listed.statusCode, 200, listed.body);
    const blocks = (listed.json() as { blocked_for: { identifier: string; ip: string; connection: string }[] }).blocked_for;
    assert.deepEqual(
      blocks.sort((a, b) => a.ip.localeCompare(b.ip)),
      [
        { identifier: 'bob@example.com', ip: '10.1.1.1', connection: REALM },
        { identifier: 'bob@example.com', ip: '10.1.1.2', connection: REALM },
      ],
    );

    const deleted = await t.management('DELETE', '/api/v2/user-blocks?identifier=bob%40example.com');
    assert.equal(deleted.statusCode, 204, deleted.body);
    assert.deepEqual((await t.management('GET', '/api/v2/user-blocks?identifier=bob%40example.com')).json(), { blocked_for: [] });
    for (const ip of ['10.1.1.1', '10.1.1.2']) assert.equal((await login(PASSWORD, ip)).statusCode, 200, ip);
  });

  it('requires the identifier and the scopes read:users / update:users', async () => {
    const missing = await t.management('GET', '/api/v2/user-blocks');
    assert.equal(missing.statusCode, 400);
    const readOnly = await t.managementToken('read:users');
    assert.equal((await t.management('GET', '/api/v2/user-blocks?identifier=x', { token: readOnly })).statusCode, 200);
    const denied = await t.management('DELETE', '/api/v2/user-blocks?identifier=x', { token: readOnly });
    assert.equal(denied.statusCode, 403);
    assert.equal((denied.json() as { message: string }).message, 'Insufficient scope, expected any of: update:users');
    const updateOnly = await t.managementToken('update:users');
    assert.equal((await t.management('GET', '/api/v2/user-blocks?identifier=x', { token: updateOnly })).statusCode, 403);
  });
});
