/**
 * GET and DELETE /api/v2/anomaly/blocks/ips/{ip} against blocks made by the
 * password-realm grant's brute-force protection: an address is blocked while
 * a login from it is refused for used-up failures, on any account; unblocking
 * the address lets those logins through again and leaves other addresses
 * blocked. In memory and with Redis (the shared index). Refusals: 400 not an
 * address, 403 scope, 404 not blocked.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MAX_FAILURES } from '../../src/domain/brute-force.js';
import { createTestApp, DOMAIN, type TestApp } from '../helpers/app.js';
import { insertClient, type TestClient } from '../helpers/fixtures.js';
import { REDIS_URL, redisAvailable } from '../helpers/redis.js';

const REALM = 'anomaly-users';
const PASSWORD = 'correct horse battery staple';
const redis = await redisAvailable();

for (const store of ['memory', 'Redis'] as const) describe(`/api/v2/anomaly/blocks/ips (${store})`, { skip: store === 'Redis' && !redis && `Redis is not reachable at ${REDIS_URL}` }, () => {
  let t: TestApp;
  let client: TestClient;

  const login = (password: string, ip: string, username: string) =>
    t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      remoteAddress: ip,
      headers: { host: DOMAIN, 'content-type': 'application/json' },
      payload: { grant_type: 'http://auth0.com/oauth/grant-type/password-realm', client_id: client.client_id, client_secret: client.client_secret, username, password, realm: REALM },
    });
  const block = async (ip: string, username: string) => {
    for (let i = 0; i < MAX_FAILURES; i++) assert.equal((await login('wrong', ip, username)).statusCode, 403);
    assert.equal((await login(PASSWORD, ip, username)).statusCode, 429);
  };
  const check = (ip: string, token?: string) => t.management('GET', `/api/v2/anomaly/blocks/ips/${encodeURIComponent(ip)}`, { ...(token !== undefined && { token }) });

  before(async () => {
    t = await createTestApp(store === 'Redis' ? { env: { REDIS_URL } } : {});
    client = await insertClient(t, { name: 'App', grant_types: ['http://auth0.com/oauth/grant-type/password-realm'] });
    assert.equal((await t.management('POST', '/api/v2/connections', { body: { name: REALM, strategy: 'auth0', enabled_clients: [client.client_id] } })).statusCode, 201);
    for (const email of ['ann@example.com', 'bob@example.com']) {
      assert.equal((await t.management('POST', '/api/v2/users', { body: { connection: REALM, email, password: PASSWORD } })).statusCode, 201);
    }
  });
  after(() => t.close());

  it('an address is blocked while logins from it are; unblocking it lifts every account\'s block from it only', async () => {
    // Addresses unique to this run, so a Redis shared with other runs holds nothing of theirs.
    const suffix = Math.floor(Math.random() * 200) + 20;
    const [first, second] = [`10.9.${suffix}.1`, `2001:db8::${suffix.toString(16)}`];
    const notBlocked = await check(first);
    assert.equal(notBlocked.statusCode, 404, notBlocked.body);
    assert.deepEqual(notBlocked.json(), { statusCode: 404, error: 'Not Found', message: 'IP address specified is not currently blocked.' });

    await block(first, 'ann@example.com');
    await block(first, 'bob@example.com');
    await block(second, 'ann@example.com');
    const blocked = await check(first);
    assert.equal(blocked.statusCode, 200, blocked.body);
    assert.equal(blocked.body, '');
    assert.equal((await check(second.toUpperCase())).statusCode, 200);

    assert.equal((await t.management('DELETE', `/api/v2/anomaly/blocks/ips/${first}`)).statusCode, 204);
    assert.equal((await check(first)).statusCode, 404);
    assert.equal((await login(PASSWORD, first, 'ann@example.com')).statusCode, 200);
    assert.equal((await login(PASSWORD, first, 'bob@example.com')).statusCode, 200);
    // The other address is still blocked, for the user-blocks API too.
    assert.equal((await check(second)).statusCode, 200);
    assert.equal((await login(PASSWORD, second, 'ann@example.com')).statusCode, 429);
    const userBlocks = (await t.management('GET', '/api/v2/user-blocks?identifier=ann%40example.com')).json() as { blocked_for: { ip: string }[] };
    assert.deepEqual(userBlocks.blocked_for.map((b) => b.ip), [second]);
    assert.equal((await t.management('DELETE', `/api/v2/anomaly/blocks/ips/${encodeURIComponent(second)}`)).statusCode, 204);
    assert.equal((await login(PASSWORD, second, 'ann@example.com')).statusCode, 200);
  });

  it('refuses what is not an address with 400 and a token without the scope with 403', async () => {
    for (const id of ['not-an-ip', '999.1.1.1', '10.0.0.0%2F8']) {
      for (const method of ['GET', 'DELETE']) {
        const res = await t.management(method, `/api/v2/anomaly/blocks/ips/${id}`);
        assert.equal(res.statusCode, 400, `${method} ${id}: ${res.body}`);
        assert.equal((res.json() as { errorCode: string }).errorCode, 'invalid_uri');
      }
    }
    const token = await t.managementToken('read:users');
    assert.equal((await check('10.0.0.1', token)).statusCode, 403);
    const res = await t.management('DELETE', '/api/v2/anomaly/blocks/ips/10.0.0.1', { token });
    assert.equal(res.statusCode, 403);
    assert.equal((res.json() as { message: string }).message, 'Insufficient scope, expected any of: delete:anomaly_blocks');
  });
});
