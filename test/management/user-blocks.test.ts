/**
 * GET and DELETE /api/v2/user-blocks?identifier= and /api/v2/user-blocks/{id}
 * against blocks made by the password-realm grant's brute-force protection.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { MAX_FAILURES, type UserBlock } from '../../src/domain/brute-force.js';
import { createTestApp, DOMAIN, type TestApp } from '../helpers/app.js';
import { insertClient, type TestClient } from '../helpers/fixtures.js';

const REALM = 'Username-Password-Authentication';
const OTHER = 'other-db';
const WITH_USERNAME = 'with-username';
const PASSWORD = 'correct horse battery staple';
const PASSWORD_REALM = 'http://auth0.com/oauth/grant-type/password-realm';

describe('/api/v2/user-blocks', () => {
  let t: TestApp;
  let client: TestClient;

  const login = (password: string, ip: string, username = 'bob@example.com', realm = REALM) =>
    t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      remoteAddress: ip,
      headers: { host: DOMAIN, 'content-type': 'application/json' },
      payload: { grant_type: PASSWORD_REALM, client_id: client.client_id, client_secret: client.client_secret, username, password, realm },
    });
  /** Fails MAX_FAILURES times, then checks that even the right password is refused. */
  const block = async (ip: string, username: string, realm = REALM) => {
    for (let i = 0; i < MAX_FAILURES; i++) assert.equal((await login('wrong', ip, username, realm)).statusCode, 403);
    assert.equal((await login(PASSWORD, ip, username, realm)).statusCode, 429);
  };
  const createUser = async (body: Record<string, unknown>): Promise<string> => {
    const res = await t.management('POST', '/api/v2/users', { body: { password: PASSWORD, ...body } });
    assert.equal(res.statusCode, 201, res.body);
    return (res.json() as { user_id: string }).user_id;
  };
  const blockedFor = (res: LightMyRequestResponse) =>
    (res.json() as { blocked_for: UserBlock[] }).blocked_for.sort((a, b) => a.ip.localeCompare(b.ip));

  before(async () => {
    t = await createTestApp();
    client = await insertClient(t, { grant_types: [PASSWORD_REALM] });
    for (const [name, options] of [[REALM, {}], [OTHER, {}], [WITH_USERNAME, { requires_username: true }]] as const) {
      const res = await t.management('POST', '/api/v2/connections', { body: { name, strategy: 'auth0', options, enabled_clients: [client.client_id] } });
      assert.equal(res.statusCode, 201, res.body);
    }
    await createUser({ connection: REALM, email: 'bob@example.com' });
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

  it('GET /user-blocks/{id}: the blocks of the user\'s email and username in the user\'s connection', async () => {
    const carol = await createUser({ connection: WITH_USERNAME, email: 'Carol@Example.com', username: 'Carol_1' });
    const dave = await createUser({ connection: REALM, email: 'dave@example.com' });
    const otherDave = await createUser({ connection: OTHER, email: 'dave@example.com' });

    const none = await t.management('GET', `/api/v2/user-blocks/${encodeURIComponent(carol)}`);
    assert.equal(none.statusCode, 200, none.body);
    assert.deepEqual(none.json(), { blocked_for: [] });

    await block('10.2.0.1', 'CAROL_1', WITH_USERNAME);
    await block('10.2.0.2', 'carol@example.com', WITH_USERNAME);
    await block('10.2.0.3', 'dave@example.com', REALM);
    await block('10.2.0.4', 'dave@example.com', OTHER);

    const carolBlocks = await t.management('GET', `/api/v2/user-blocks/${encodeURIComponent(carol)}?consider_brute_force_enablement=true`);
    assert.equal(carolBlocks.statusCode, 200, carolBlocks.body);
    assert.deepEqual(blockedFor(carolBlocks), [
      { identifier: 'carol_1', ip: '10.2.0.1', connection: WITH_USERNAME },
      { identifier: 'carol@example.com', ip: '10.2.0.2', connection: WITH_USERNAME },
    ]);
    // The same address in another connection is another user, with its own blocks.
    assert.deepEqual(blockedFor(await t.management('GET', `/api/v2/user-blocks/${encodeURIComponent(dave)}`)), [
      { identifier: 'dave@example.com', ip: '10.2.0.3', connection: REALM },
    ]);
    assert.deepEqual(blockedFor(await t.management('GET', `/api/v2/user-blocks/${encodeURIComponent(otherDave)}`)), [
      { identifier: 'dave@example.com', ip: '10.2.0.4', connection: OTHER },
    ]);
  });

  it('DELETE /user-blocks/{id} unblocks the user in its connection only', async () => {
    const erin = await createUser({ connection: REALM, email: 'erin@example.com' });
    await createUser({ connection: OTHER, email: 'erin@example.com' });
    await block('10.3.0.1', 'erin@example.com', REALM);
    await block('10.3.0.2', 'erin@example.com', OTHER);

    const deleted = await t.management('DELETE', `/api/v2/user-blocks/${encodeURIComponent(erin)}`);
    assert.equal(deleted.statusCode, 204, deleted.body);
    assert.equal(deleted.body, '');
    assert.deepEqual((await t.management('GET', `/api/v2/user-blocks/${encodeURIComponent(erin)}`)).json(), { blocked_for: [] });
    assert.equal((await login(PASSWORD, '10.3.0.1', 'erin@example.com', REALM)).statusCode, 200);
    assert.equal((await login(PASSWORD, '10.3.0.2', 'erin@example.com', OTHER)).statusCode, 429, 'the other connection\'s user stays blocked');
    assert.deepEqual(blockedFor(await t.management('GET', '/api/v2/user-blocks?identifier=erin%40example.com')), [
      { identifier: 'erin@example.com', ip: '10.3.0.2', connection: OTHER },
    ]);
  });

  it('answers 404 inexistent_user for an unknown user_id, and requires read:users / update:users', async () => {
    const notFound = { statusCode: 404, error: 'Not Found', message: 'The user does not exist.', errorCode: 'inexistent_user' };
    for (const method of ['GET', 'DELETE']) {
      const res = await t.management(method, '/api/v2/user-blocks/auth0%7Cmissing');
      assert.equal(res.statusCode, 404, `${method}: ${res.body}`);
      assert.deepEqual(res.json(), notFound);
    }
    const readOnly = await t.managementToken('read:users');
    assert.equal((await t.management('GET', '/api/v2/user-blocks/auth0%7Cmissing', { token: readOnly })).statusCode, 404);
    const denied = await t.management('DELETE', '/api/v2/user-blocks/auth0%7Cmissing', { token: readOnly });
    assert.equal(denied.statusCode, 403);
    assert.equal((denied.json() as { message: string }).message, 'Insufficient scope, expected any of: update:users');
    const updateOnly = await t.managementToken('update:users');
    const refused = await t.management('GET', '/api/v2/user-blocks/auth0%7Cmissing', { token: updateOnly });
    assert.equal(refused.statusCode, 403);
    assert.equal((refused.json() as { message: string }).message, 'Insufficient scope, expected any of: read:users');
  });
});
