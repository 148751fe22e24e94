/**
 * The short-lived artefact tables through their one store
 * (src/storage/kysely/expiring-artefacts.ts), on SQLite and PostgreSQL: every
 * table with an expiry is one the purge knows; the purge deletes what ended a
 * grace period ago, in batches, and keeps the rest; each artefact is spent
 * once however many callers race for it, and never once expired.
 */
import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { sql } from 'kysely';
import type { Stores } from '../../src/domain/stores.js';
import { toLogRow } from '../../src/domain/logs/tenant-logs.js';
import { newPrefixedId } from '../../src/platform/crypto/ids.js';
import type { Db, Dialect } from '../../src/storage/database.js';
import { toStored } from '../../src/storage/json-columns.js';
import { ArtefactTable, EXPIRING_ARTEFACTS } from '../../src/storage/kysely/expiring-artefacts.js';
import { PURGE_GRACE_MS, purgeExpired } from '../../src/storage/purge.js';
import { forEachStoreFactory } from '../helpers/databases.js';
import { connectionRow, tenantRow, userRow } from '../helpers/rows.js';

/** Tables with an expiry that are not artefacts: kept until deleted through the Management API. */
const NOT_ARTEFACTS = ['client_credentials', 'organization_invitations'];

const NOW = Date.parse('2026-03-01T12:00:00.000Z');
const iso = (ms: number) => new Date(NOW + ms).toISOString();
const LONG_AGO = iso(-PURGE_GRACE_MS - 60_000);
const RECENTLY = iso(-60_000);
const LATER = iso(3_600_000);

/** How many of `attempts` succeeded, all started together. */
async function successes(attempts: number, attempt: () => Promise<unknown>): Promise<number> {
  const results = await Promise.all(Array.from({ length: attempts }, attempt));
  return results.filter((r) => r !== undefined && r !== false).length;
}

await forEachStoreFactory('expiring artefacts', (h) => {
  let db: Db;
  let dialect: Dialect;
  let stores: Stores;
  let tenantId: string;
  let connectionId: string;
  let userId: string;
  before(async () => {
    db = h.db();
    dialect = h.dialect();
    stores = h.stores();
    const tenant = tenantRow();
    tenantId = tenant.id;
    await db.insertInto('tenants').values(toStored('tenants', tenant)).execute();
    const connection = connectionRow(tenantId);
    connectionId = connection.id;
    await db.insertInto('connections').values(toStored('connections', connection)).execute();
    const user = userRow(tenantId, connectionId);
    userId = user.user_id;
    await db.insertInto('users').values(toStored('users', user)).execute();
  });

  it('every table with an expires_at column is an artefact table the purge knows (or one of the named exceptions)', async () => {
    const query =
      dialect === 'postgres'
        ? sql<{ name: string }>`select table_name as name from information_schema.columns where table_schema = 'public' and column_name = 'expires_at'`
        : sql<{ name: string }>`select m.name as name from sqlite_master m join pragma_table_info(m.name) p where m.type = 'table' and p.name = 'expires_at'`;
    const withExpiry = (await query.execute(db)).rows.map((r) => r.name).sort();
    const known = new Set([...Object.keys(EXPIRING_ARTEFACTS), ...NOT_ARTEFACTS]);
    assert.deepEqual(
      withExpiry.filter((table) => !known.has(table)),
      [],
      'a new table with expires_at: add it to EXPIRING_ARTEFACTS (or here, if its rows are not short-lived)',
    );
    assert.ok(withExpiry.includes('tickets') && withExpiry.includes('device_codes'), withExpiry.join(', '));
  });

  it('the purge deletes what ended a grace period ago, in batches, and keeps what ended since and what is live', async () => {
    const tickets = Array.from({ length: 5 }, (_, i) => ({ id: `t-old-${i}`, expires_at: LONG_AGO })).concat([
      { id: 't-recent', expires_at: RECENTLY },
      { id: 't-live', expires_at: LATER },
    ]);
    for (const t of tickets) {
      await stores.tickets.insert({ tenant_id: tenantId, id_hash: t.id, kind: 'password_reset', user_id: userId, created_at: LONG_AGO, expires_at: t.expires_at });
    }
    const session = (id_hash: string, expires_at: string, revoked_at: string | null) => ({
      tenant_id: tenantId, id_hash, user_id: userId, auth_time: 0, created_at: LONG_AGO, expires_at, revoked_at, amr: null, last_interacted_at: null, logout_notified_at: null,
    });
    await db.insertInto('sessions').values([session('s-revoked', LATER, LONG_AGO), session('s-live', LATER, null)]).execute();
    const device = (id: string, expires_at: string) => ({
      tenant_id: tenantId, id, device_code_hash: `${id}-d`, user_code_hash: `${id}-u`, client_id: 'c', scope: null, audience: null, status: 'pending' as const,
      user_id: null, session_id: null, auth_time: null, organization_id: null, interval: 5, created_at: LONG_AGO, expires_at, last_polled_at: null, expiry_reported: 0, used_at: null,
    });
    await stores.deviceCodes.insert(device('dev-old', LONG_AGO));
    await stores.deviceCodes.insert(device('dev-live', LATER));
    const day = 24 * 60 * 60 * 1000;
    await stores.tenantLogs.insertMany([40, 35, 31, 2].map((days) => toLogRow(tenantId, { type: 's', description: `${days} days ago` }, NOW - days * day)));

    const removed = await purgeExpired(db, NOW, { batch: 2 });
    assert.equal(removed.tickets, 5, 'five old tickets, in three batches of two');
    assert.equal(removed.sessions, 1);
    assert.equal(removed.device_codes, 1);
    assert.equal(removed.tenant_logs, 3);

    const left = async (table: 'tickets' | 'sessions') => (await db.selectFrom(table).select('id_hash').where('tenant_id', '=', tenantId).execute()).map((r) => r.id_hash).sort();
    assert.deepEqual(await left('tickets'), ['t-live', 't-recent'], 'a ticket expired a minute ago stays a day');
    assert.deepEqual(await left('sessions'), ['s-live']);
    assert.deepEqual((await db.selectFrom('device_codes').select('id').where('tenant_id', '=', tenantId).execute()).map((r) => r.id), ['dev-live']);
    const logs = await db.selectFrom('tenant_logs').select('description').where('tenant_id', '=', tenantId).execute();
    assert.deepEqual(logs.map((r) => r.description), ['2 days ago']);
    assert.deepEqual(Object.values(await purgeExpired(db, NOW, { batch: 2 })).filter((n) => n !== 0), [], 'a second purge finds nothing');
  });

  it('an artefact is spent by exactly one of many concurrent callers, for every kind that is spent', async () => {
    const now = iso(0);
    const racers = 8;
    const id = () => newPrefixedId('x');

    const ticket = id();
    await stores.tickets.insert({ tenant_id: tenantId, id_hash: ticket, kind: 'email_verification', user_id: userId, created_at: now, expires_at: LATER });
    assert.equal(await successes(racers, () => stores.tickets.consume(tenantId, ticket, 'email_verification', now)), 1, 'ticket');

    const code = id();
    await stores.authorizationCodes.insert({
      tenant_id: tenantId, code_hash: code, client_id: 'c', user_id: userId, redirect_uri: null, scope: null, audience: null, nonce: null,
      code_challenge: null, code_challenge_method: null, session_id: 's', auth_time: 0, expires_at: LATER,
    });
    assert.equal(await successes(racers, () => stores.authorizationCodes.consume(tenantId, code, now, id())), 1, 'authorization code');
    assert.ok((await stores.authorizationCodes.find(tenantId, code))?.refresh_family_id, 'the winner’s refresh family is recorded');

    const pushed = id();
    await stores.pushedRequests.insert({ tenant_id: tenantId, id_hash: pushed, client_id: 'c', params: { scope: 'openid' }, created_at: now, expires_at: LATER });
    assert.equal(await successes(racers, () => stores.pushedRequests.consume(tenantId, pushed, 'c', now)), 1, 'pushed request');

    const transaction = id();
    await stores.authorizeTransactions.insert({ tenant_id: tenantId, id_hash: transaction, client_id: 'c', params: {}, created_at: now, expires_at: LATER, browser_hash: null });
    assert.equal(await successes(racers, () => stores.authorizeTransactions.consume(tenantId, transaction, now)), 1, 'authorization request');

    const oob = id();
    await stores.mfa.insertChallenge({ tenant_id: tenantId, oob_hash: oob, authenticator_id: 'a', user_id: userId, client_id: 'c', binding_hash: 'b', expires_at: LATER });
    assert.equal(await successes(racers, () => stores.mfa.spendChallenge(tenantId, oob, now)), 1, 'MFA challenge');

    await stores.passwordless.replace({ tenant_id: tenantId, connection_id: connectionId, recipient: 'p@example.com', client_id: 'c', code_hash: 'h', created_at: now, expires_at: LATER });
    assert.equal(await successes(racers, () => stores.passwordless.spend(tenantId, connectionId, 'p@example.com', 'h', now, 5)), 1, 'passwordless code');

    const device = id();
    await stores.deviceCodes.insert({
      tenant_id: tenantId, id: device, device_code_hash: `${device}-d`, user_code_hash: `${device}-u`, client_id: 'c', scope: null, audience: null, status: 'pending',
      user_id: null, session_id: null, auth_time: null, organization_id: null, interval: 5, created_at: now, expires_at: LATER, last_polled_at: null, expiry_reported: 0, used_at: null,
    });
    assert.equal(await stores.deviceCodes.consume(tenantId, device, now), false, 'a pending device request is not spent');
    assert.equal(await stores.deviceCodes.approve(tenantId, device, now, { user_id: userId, session_id: 's', auth_time: 0, scope: null, audience: null, organization_id: null }), true);
    // Redeemed after its expiry: the approval came before it.
    assert.equal(await successes(racers, () => stores.deviceCodes.consume(tenantId, device, iso(2 * 3_600_000))), 1, 'approved device request');
  });

  it('an expired artefact is neither found usable nor spent; the same one live is, once', async () => {
    const tickets = new ArtefactTable(db, 'tickets');
    const key = { tenant_id: tenantId, id_hash: newPrefixedId('x'), kind: 'password_reset' as const };
    await tickets.insert({ ...key, user_id: userId, created_at: iso(0), expires_at: iso(60_000), used_at: null });
    assert.equal(await tickets.findUsable(key, iso(60_000)), undefined, 'expired at its expires_at');
    assert.equal(await tickets.spend(key, iso(60_000)), undefined);
    assert.equal((await tickets.find(key))?.used_at, null, 'a refused spend changes nothing');
    assert.equal((await tickets.findUsable(key, iso(59_000)))?.user_id, userId);
    assert.equal((await tickets.spend(key, iso(59_000)))?.used_at, iso(59_000));
    assert.equal(await tickets.spend(key, iso(59_500)), undefined, 'spent once');
    assert.equal(await tickets.findUsable(key, iso(59_500)), undefined);
    // A key with no columns would spend whichever row came first.
    await assert.rejects(tickets.spend({}, iso(0)), /an incomplete key of tickets/);
  });
});
