/** Expired artefacts go a day after they stopped mattering; live ones stay. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { purgeExpired, PURGE_GRACE_MS } from '../../src/storage/purge.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { postgresAvailable } from '../helpers/postgres.js';

const skipPostgres = await postgresAvailable().then((ok) => (ok ? false : 'PostgreSQL is not reachable'));

for (const postgres of [false, true]) describe(`purgeExpired (${postgres ? 'PostgreSQL' : 'SQLite'})`, { skip: postgres && skipPostgres }, () => {
  let t: TestApp;
  let userId: string;
  const now = Date.now();
  const longAgo = new Date(now - PURGE_GRACE_MS - 60_000).toISOString();
  const recently = new Date(now - 60_000).toISOString();
  const later = new Date(now + 3_600_000).toISOString();

  before(async () => {
    t = await createTestApp({ postgres });
    const connection = await t.management('POST', '/api/v2/connections', { body: { name: 'purge-db', strategy: 'auth0' } });
    assert.equal(connection.statusCode, 201, connection.body);
    const user = await t.management('POST', '/api/v2/users', {
      // No verification mail: its ticket would be one more row than the test sets up.
      body: { connection: 'purge-db', email: 'purge@example.com', password: 'Correct-Horse-9', verify_email: false },
    });
    assert.equal(user.statusCode, 201, user.body);
    userId = (user.json() as { user_id: string }).user_id;
  });
  after(() => t.close());

  it('deletes what expired or was revoked more than a day ago, and nothing else', async () => {
    const db = t.ctx.database.db;
    const tenant_id = t.tenant.id;
    const clientId = t.admin.client_id;
    await db
      .insertInto('tickets')
      .values([
        { tenant_id, id_hash: 't-old', kind: 'password_reset', user_id: userId, created_at: longAgo, expires_at: longAgo, used_at: null },
        { tenant_id, id_hash: 't-recent', kind: 'password_reset', user_id: userId, created_at: recently, expires_at: recently, used_at: null },
      ])
      .execute();
    await db
      .insertInto('sessions')
      .values([
        { tenant_id, id_hash: 's-old', user_id: userId, auth_time: 0, created_at: longAgo, expires_at: longAgo, revoked_at: null },
        { tenant_id, id_hash: 's-revoked', user_id: userId, auth_time: 0, created_at: longAgo, expires_at: later, revoked_at: longAgo },
        { tenant_id, id_hash: 's-live', user_id: userId, auth_time: 0, created_at: recently, expires_at: later, revoked_at: null },
      ])
      .execute();
    await db
      .insertInto('authorization_requests')
      .values([
        { tenant_id, id_hash: 'r-old', client_id: clientId, params: '{}', created_at: longAgo, expires_at: longAgo, used_at: null, completed_steps: '[]' },
        { tenant_id, id_hash: 'r-live', client_id: clientId, params: '{}', created_at: recently, expires_at: later, used_at: null, completed_steps: '[]' },
      ])
      .execute();
    const code = (code_hash: string, expires_at: string) => ({
      tenant_id, code_hash, client_id: clientId, user_id: userId, redirect_uri: null, scope: null, audience: null, nonce: null,
      code_challenge: null, code_challenge_method: null, session_id: 's-live', auth_time: 0, expires_at, used_at: null, refresh_family_id: null,
    });
    await db.insertInto('authorization_codes').values([code('c-old', longAgo), code('c-recent', recently)]).execute();
    const token = (id_hash: string, fields: { expires_at?: string | null; revoked_at?: string | null; rotated_at?: string | null }) => ({
      tenant_id, id_hash, family_id: 'f', client_id: clientId, user_id: userId, audience: null, scope: 'openid', created_at: longAgo,
      expires_at: null, idle_expires_at: null, last_used_at: longAgo, rotated_at: null, revoked_at: null, ...fields,
    });
    await db
      .insertInto('refresh_tokens')
      .values([
        token('rt-expired', { expires_at: longAgo }),
        token('rt-revoked', { revoked_at: longAgo }),
        token('rt-rotated', { rotated_at: longAgo }),
        token('rt-live', { expires_at: later }),
      ])
      .execute();

    await db
      .insertInto('one_time_uses')
      .values([
        { tenant_id, purpose: 'client_assertion:x', key_hash: 'j-old', expires_at: longAgo },
        { tenant_id, purpose: 'client_assertion:x', key_hash: 'j-live', expires_at: later },
      ])
      .execute();

    await db
      .insertInto('pushed_authorization_requests')
      .values([
        { tenant_id, id_hash: 'p-old', client_id: clientId, params: '{}', created_at: longAgo, expires_at: longAgo, used_at: null },
        { tenant_id, id_hash: 'p-live', client_id: clientId, params: '{}', created_at: longAgo, expires_at: later, used_at: null },
      ])
      .execute();

    const challenge = (oob_hash: string, expires_at: string) => ({
      tenant_id, oob_hash, authenticator_id: 'dev_x', user_id: userId, client_id: clientId, binding_hash: 'b', expires_at, used_at: null,
    });
    await db.insertInto('mfa_challenges').values([challenge('o-old', longAgo), challenge('o-live', later)]).execute();

    const connectionId = (await t.ctx.stores.connections.getByName(tenant_id, 'purge-db'))!.id;
    const passwordless = (recipient: string, expires_at: string) => ({
      tenant_id, connection_id: connectionId, recipient, client_id: clientId, code_hash: 'h', failures: 0, created_at: longAgo, expires_at, used_at: null,
    });
    await db.insertInto('passwordless_codes').values([passwordless('old@example.com', longAgo), passwordless('live@example.com', later)]).execute();

    const execution = (id: string, expires_at: string) => ({ tenant_id, id, trigger_id: 'post-login', status: 'final' as const, results: '[]', created_at: longAgo, updated_at: longAgo, expires_at });
    await db.insertInto('action_executions').values([execution('e-old', longAgo), execution('e-live', later)]).execute();

    await db
      .insertInto('event_streams')
      .values({ tenant_id, id: 'est_purge', name: 's', status: 'enabled', subscriptions: '[]', destination: '{}', authorization_enc: null, created_at: longAgo, updated_at: longAgo })
      .execute();
    const delivery = (id: string, status: 'delivered' | 'failed', delivered_at: string | null) => ({
      id, tenant_id, stream_id: 'est_purge', event_id: `evt_${id}`, event_type: 'user.created', event: '{}', status, attempts: 1, attempt_log: '[]', next_attempt_at: longAgo, created_at: longAgo, delivered_at,
    });
    // Delivered long ago: purged; delivered lately, and failed long ago (waiting for a redelivery): kept.
    await db.insertInto('event_deliveries').values([delivery('d-old', 'delivered', longAgo), delivery('d-recent', 'delivered', later), delivery('d-failed', 'failed', null)]).execute();
    await db
      .insertInto('self_service_profiles')
      .values({ tenant_id, id: 'ssp_purge', name: 'Purge', description: null, branding: null, allowed_strategies: '["samlp"]', user_attributes: '[]', custom_text: '{}', created_at: longAgo, updated_at: longAgo })
      .execute();
    const ssoTicket = (id_hash: string, expires_at: string) => ({ tenant_id, id_hash, profile_id: 'ssp_purge', config: '{}', created_at: longAgo, expires_at, used_at: null, revoked_at: null, connection_id: null });
    await db.insertInto('sso_tickets').values([ssoTicket('st-old', longAgo), ssoTicket('st-live', later)]).execute();

    const removed = await purgeExpired(db, now);
    assert.deepEqual(
      (await db.selectFrom('event_deliveries').select('id').where('tenant_id', '=', tenant_id).execute()).map((r) => r.id).sort(),
      ['d-failed', 'd-recent'],
    );
    assert.deepEqual(removed, {
      tickets: 1,
      authorization_requests: 1,
      authorization_codes: 1,
      sessions: 2,
      refresh_tokens: 2,
      one_time_uses: 1,
      mfa_challenges: 1,
      passwordless_codes: 1,
      pushed_authorization_requests: 1,
      device_codes: 0,
      backchannel_logout_deliveries: 0,
      backchannel_auth_requests: 0,
      action_executions: 1,
      event_deliveries: 1,
      tenant_events: 0,
      known_devices: 0,
      sso_tickets: 1,
      tenant_logs: 0,
    });

    const ids = async (table: 'tickets' | 'sessions' | 'authorization_requests' | 'refresh_tokens') =>
      (await db.selectFrom(table).select('id_hash').where('tenant_id', '=', tenant_id).execute()).map((r) => r.id_hash).sort();
    assert.deepEqual(await ids('tickets'), ['t-recent']);
    assert.deepEqual(await ids('sessions'), ['s-live']);
    assert.deepEqual(await ids('authorization_requests'), ['r-live']);
    assert.deepEqual(await ids('refresh_tokens'), ['rt-live', 'rt-rotated'], 'a rotated token of a live family stays for reuse detection');
    const codes = (await db.selectFrom('authorization_codes').select('code_hash').where('tenant_id', '=', tenant_id).execute()).map((r) => r.code_hash);
    assert.deepEqual(codes, ['c-recent'], 'a code expired minutes ago stays so a late replay is still recognised');
    // (The tenant's console setup link, issued at its first start, is a one-time use of its own purpose.)
    const uses = (await db.selectFrom('one_time_uses').select('key_hash').where('tenant_id', '=', tenant_id).where('purpose', '=', 'client_assertion:x').execute()).map((r) => r.key_hash);
    assert.deepEqual(uses, ['j-live']);
    const pushed = (await db.selectFrom('pushed_authorization_requests').select('id_hash').where('tenant_id', '=', tenant_id).execute()).map((r) => r.id_hash);
    assert.deepEqual(pushed, ['p-live']);
    const challenges = (await db.selectFrom('mfa_challenges').select('oob_hash').where('tenant_id', '=', tenant_id).execute()).map((r) => r.oob_hash);
    assert.deepEqual(challenges, ['o-live']);
    const codes2 = (await db.selectFrom('passwordless_codes').select('recipient').where('tenant_id', '=', tenant_id).execute()).map((r) => r.recipient);
    assert.deepEqual(codes2, ['live@example.com']);
  });

  it('deletes tenant log events older than the retention, and no newer ones', async () => {
    const db = t.ctx.database.db;
    const DAY = 24 * 60 * 60 * 1000;
    const { toLogRow } = await import('../../src/domain/logs/tenant-logs.js');
    const rows = [40, 8, 1].map((days) => toLogRow(t.tenant.id, { type: 's', description: `${days} days ago` }, now - days * DAY));
    await t.ctx.stores.tenantLogs.insertMany(rows);
    const described = async () =>
      (await db.selectFrom('tenant_logs').select('description').where('tenant_id', '=', t.tenant.id).where('type', '=', 's').orderBy('date').execute()).map((r) => r.description);

    assert.equal((await purgeExpired(db, now)).tenant_logs, 1, 'the default retention is 30 days');
    assert.deepEqual(await described(), ['8 days ago', '1 days ago']);
    assert.equal((await purgeExpired(db, now, { logRetentionDays: 7 })).tenant_logs, 1);
    assert.deepEqual(await described(), ['1 days ago']);
  });

  it('deletes old tenant log events in batches until none is left, newer ones kept', async () => {
    const db = t.ctx.database.db;
    const DAY = 24 * 60 * 60 * 1000;
    const { toLogRow } = await import('../../src/domain/logs/tenant-logs.js');
    const old = Array.from({ length: 23 }, (_, i) => toLogRow(t.tenant.id, { type: 'fp', description: `old ${i}` }, now - 40 * DAY - i * 1000));
    await t.ctx.stores.tenantLogs.insertMany([...old, toLogRow(t.tenant.id, { type: 'fp', description: 'recent' }, now - DAY)]);
    assert.equal((await purgeExpired(db, now, { batch: 5 })).tenant_logs, 23, 'five batches of 5 (the last one short)');
    const left = await db.selectFrom('tenant_logs').select('description').where('tenant_id', '=', t.tenant.id).where('type', '=', 'fp').execute();
    assert.deepEqual(left.map((r) => r.description), ['recent']);
  });
});
