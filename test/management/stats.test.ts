/**
 * GET /api/v2/stats/active-users and /api/v2/stats/daily on the real app and
 * database: active users counted from real logins (the password-realm grant
 * records last_login) and the clock moved past 30 days; daily counts from the
 * tenant log's events (written through its store, dated on chosen days);
 * refusals: 400 bad days and ranges, 403 without read:stats. On SQLite and
 * PostgreSQL (the day grouping is SQL).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, tokenRequest, withClockAdvanced, type TestApp } from '../helpers/app.js';
import { insertClient, type TestClient } from '../helpers/fixtures.js';
import { newLogId } from '../../src/domain/logs/log-id.js';
import type { TenantLogRow } from '../../src/domain/rows.js';
import { postgresAvailable } from '../helpers/postgres.js';

const REALM = 'stats-users';
const PASSWORD = 'Correct horse battery staple 1';
const DAY = 24 * 60 * 60 * 1000;

const postgres = await postgresAvailable();

for (const database of ['SQLite', 'PostgreSQL'] as const) describe(`/api/v2/stats (${database})`, { skip: database === 'PostgreSQL' && !postgres && 'PostgreSQL is not reachable' }, () => {
  let t: TestApp;
  let app: TestClient;

  const get = async (url: string, token?: string) => t.management('GET', url, { ...(token !== undefined && { token }) });

  before(async () => {
    t = await createTestApp({ postgres: database === 'PostgreSQL' });
    app = await insertClient(t, { name: 'App', app_type: 'regular_web', grant_types: ['http://auth0.com/oauth/grant-type/password-realm'] });
    assert.equal((await t.management('POST', '/api/v2/connections', { body: { name: REALM, strategy: 'auth0', enabled_clients: [app.client_id] } })).statusCode, 201);
    for (const email of ['one@example.com', 'two@example.com', 'idle@example.com']) {
      assert.equal((await t.management('POST', '/api/v2/users', { body: { connection: REALM, email, password: PASSWORD } })).statusCode, 201);
    }
  });
  after(() => t.close());

  const logIn = async (email: string) => {
    const res = await tokenRequest(t.app, { grant_type: 'http://auth0.com/oauth/grant-type/password-realm', client_id: app.client_id, client_secret: app.client_secret, username: email, password: PASSWORD, realm: REALM });
    assert.equal(res.statusCode, 200, res.body);
  };

  it('active-users counts the users who logged in during the last 30 days', async () => {
    assert.equal((await get('/api/v2/stats/active-users')).json(), 0);
    await logIn('one@example.com');
    await logIn('two@example.com');
    await logIn('two@example.com');
    const res = await get('/api/v2/stats/active-users');
    assert.equal(res.statusCode, 200);
    assert.equal(res.body, '2');
    // 31 days later nobody logged in within the window.
    await withClockAdvanced(t, 31 * DAY, async () => assert.equal((await get('/api/v2/stats/active-users')).json(), 0));
  });

  it('daily counts logins, signups and leaked passwords per day from the tenant log', async () => {
    const at = (iso: string, type: string): TenantLogRow => ({
      tenant_id: t.tenant.id, log_id: newLogId(Date.parse(iso)), date: iso, type, description: null, client_id: null, client_name: null, ip: null, user_agent: null,
      user_id: null, user_name: null, connection: null, connection_id: null, strategy: null, strategy_type: null, audience: null, scope: null, hostname: null, details: null,
    });
    await t.ctx.stores.tenantLogs.insertMany([
      at('2026-03-01T08:00:00.000Z', 's'),
      at('2026-03-01T09:30:00.000Z', 's'),
      at('2026-03-01T10:00:00.000Z', 'ss'),
      at('2026-03-01T11:00:00.000Z', 'fp'),
      at('2026-03-03T23:59:59.000Z', 'ss'),
      at('2026-03-05T00:00:00.000Z', 's'),
    ]);
    const res = await get('/api/v2/stats/daily?from=20260301&to=20260304');
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), [
      { date: '2026-03-01T00:00:00.000Z', logins: 2, signups: 1, leaked_passwords: 0, created_at: '2026-03-01T08:00:00.000Z', updated_at: '2026-03-01T10:00:00.000Z' },
      { date: '2026-03-03T00:00:00.000Z', logins: 0, signups: 1, leaked_passwords: 0, created_at: '2026-03-03T23:59:59.000Z', updated_at: '2026-03-03T23:59:59.000Z' },
    ]);
    assert.deepEqual(((await get('/api/v2/stats/daily?from=20260305&to=20260305')).json() as { logins: number }[]).map((d) => d.logins), [1]);
  });

  it('refuses bad days and ranges with 400 and a token without read:stats with 403', async () => {
    for (const query of ['from=2026-03-01', 'to=20260230', 'from=20260310&to=20260301', 'from=20240101&to=20260101', 'to=abc']) {
      const res = await get(`/api/v2/stats/daily?${query}`);
      assert.equal(res.statusCode, 400, `${query}: ${res.body}`);
      assert.equal((res.json() as { errorCode: string }).errorCode, 'invalid_query_string');
    }
    const token = await t.managementToken('read:users');
    for (const url of ['/api/v2/stats/active-users', '/api/v2/stats/daily']) {
      const res = await get(url, token);
      assert.equal(res.statusCode, 403, res.body);
      assert.equal((res.json() as { message: string }).message, 'Insufficient scope, expected any of: read:stats');
    }
  });
});
