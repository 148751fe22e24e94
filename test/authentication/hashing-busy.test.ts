/**
 * A login flood beyond the hashing pool's queue (platform/passwords/hashing.ts):
 * the logins that do not fit are refused at once with 429 too_many_requests
 * and Retry-After, never a 500; the ones accepted complete; the refusals
 * count as nothing (no brute-force failure, no change to the user); and the
 * token endpoint's client_credentials grant keeps answering meanwhile.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, tokenRequest, type TestApp } from '../helpers/app.js';
import { insertClient, type TestClient } from '../helpers/fixtures.js';

const REALM = 'Username-Password-Authentication';
const PASSWORD_REALM = 'http://auth0.com/oauth/grant-type/password-realm';
const PASSWORD = 'correct horse battery staple';

describe('password hashing saturated', () => {
  let t: TestApp;
  let client: TestClient;

  before(async () => {
    t = await createTestApp({ env: { GATEHOUSE_HASH_THREADS: '1', GATEHOUSE_HASH_QUEUE: '2' } });
    client = await insertClient(t, { grant_types: [PASSWORD_REALM, 'client_credentials'] });
    const conn = await t.management('POST', '/api/v2/connections', {
      body: { name: REALM, strategy: 'auth0', enabled_clients: [client.client_id] },
    });
    assert.equal(conn.statusCode, 201, conn.body);
    const user = await t.management('POST', '/api/v2/users', { body: { connection: REALM, email: 'flood@example.com', password: PASSWORD } });
    assert.equal(user.statusCode, 201, user.body);
  });
  after(() => t.close());

  it('refuses the logins beyond the queue with 429 and Retry-After, completes the others, and keeps issuing client tokens', async () => {
    const login = (password: string) =>
      tokenRequest(t.app, {
        grant_type: PASSWORD_REALM,
        client_id: client.client_id,
        client_secret: client.client_secret,
        username: 'flood@example.com',
        password,
        realm: REALM,
      });
    const flood = Array.from({ length: 12 }, (_, i) => login(i % 2 ? PASSWORD : 'wrong password'));
    const cc = tokenRequest(t.app, {
      grant_type: 'client_credentials',
      client_id: t.admin.client_id,
      client_secret: t.admin.client_secret,
      audience: t.admin.audience,
    });
    const responses = await Promise.all(flood);
    assert.equal((await cc).statusCode, 200, 'client_credentials answered during the flood');

    const statuses = responses.map((r) => r.statusCode);
    assert.ok(!statuses.some((s) => s >= 500), `no server errors: ${statuses.join(',')}`);
    const refused = responses.filter((r) => r.statusCode === 429);
    assert.ok(refused.length >= 1, `some refused: ${statuses.join(',')}`);
    for (const r of refused) {
      assert.equal(r.headers['retry-after'], '1');
      assert.deepEqual(r.json(), { error: 'too_many_requests', error_description: 'Too many logins in progress; retry shortly' });
    }
    const answered = responses.filter((r) => r.statusCode !== 429);
    assert.ok(answered.length >= 3, `one running and two queued at least: ${statuses.join(',')}`);
    assert.ok(answered.every((r) => r.statusCode === 200 || r.statusCode === 403), statuses.join(','));

    // The refusals were not counted as wrong passwords: the right password still works, more than once.
    for (let i = 0; i < 2; i++) {
      const ok = await login(PASSWORD);
      assert.equal(ok.statusCode, 200, ok.body);
    }
  });
});
