/**
 * The tenant log and log stream stores' contracts on every implementation:
 * batched inserts, searches (terms, prefixes, date ranges, AND/OR/NOT, a
 * user's events), order and totals, `after` a log_id (checkpoints and stream
 * cursors), retention; and the streams' leases: of two processes claiming a
 * stream at once one wins, only the holder moves the cursor.
 */
import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Stores } from '../../src/domain/stores.js';
import { parseLogQuery } from '../../src/domain/logs/query.js';
import { toLogRow } from '../../src/domain/logs/tenant-logs.js';
import { logIdFloor } from '../../src/domain/logs/log-id.js';
import type { LogEvent } from '../../src/domain/logs/events.js';
import type { LogStreamRow } from '../../src/domain/rows.js';
import { forEachStoreFactory } from '../helpers/databases.js';
import { tenantRow } from '../helpers/rows.js';

const T = Date.parse('2026-03-01T00:00:00.000Z');
const MINUTE = 60_000;

await forEachStoreFactory('tenant log storage', (h) => {
  let stores: Stores;
  before(() => {
    stores = h.stores();
  });

  async function newTenant(): Promise<string> {
    const row = tenantRow();
    await stores.tenants.create({ tenant: row, signingKeys: [], clients: [], resourceServers: [], clientGrants: [] });
    return row.id;
  }

  it('writes a batch of 1200 in chunks, and searches it by terms, prefixes, ranges and combinations', async () => {
    const tenantId = await newTenant();
    const other = await newTenant();
    const events: [LogEvent, number][] = [];
    for (let i = 0; i < 1200; i += 1) {
      const type = (['s', 'f', 'fp', 'seccft'] as const)[i % 4]!;
      events.push([{ type, user_id: `auth0|u${i % 10}`, client_id: i % 2 === 0 ? 'client-even' : 'client-odd', details: { n: i } }, T + i * MINUTE]);
    }
    const rows = events.map(([event, time]) => toLogRow(tenantId, event, time));
    await stores.tenantLogs.insertMany([...rows, toLogRow(other, { type: 's' }, T)]);

    const search = (q: string | undefined, extra: Partial<Parameters<Stores['tenantLogs']['search']>[1]> = {}) =>
      stores.tenantLogs.search(tenantId, { filter: q === undefined ? undefined : parseLogQuery(q), order: 'desc', offset: 0, limit: 100, withTotal: true, ...extra });

    const all = await search(undefined);
    assert.equal(all.total, 1200, 'one tenant only');
    assert.equal(all.rows[0]!.log_id, rows.at(-1)!.log_id, 'newest first');
    assert.deepEqual(all.rows[0]!.details, { n: 1199 });
    assert.equal((await search('type:f')).total, 300);
    assert.equal((await search('type:f*')).total, 600, 'f and fp');
    assert.equal((await search('type:f OR type:s')).total, 600);
    assert.equal((await search('type:s AND client_id:"client-even"')).total, 300);
    assert.equal((await search('type:s AND client_id:"client-odd"')).total, 0);
    assert.equal((await search('NOT type:seccft')).total, 900);
    assert.equal((await search('user_id:"auth0|u2" AND (type:s OR type:fp)')).total, 120);
    assert.equal((await search('user_id:"auth0|u2" AND type:s')).total, 60);
    assert.equal((await search('user_id:"auth0|u3" AND (type:s OR type:fp)')).total, 0);
    const from = new Date(T + 10 * MINUTE).toISOString();
    const to = new Date(T + 20 * MINUTE).toISOString();
    assert.equal((await search(`date:[${from} TO ${to}]`)).total, 11);
    assert.equal((await search(`date:{${from} TO ${to}}`)).total, 9);
    assert.equal((await search(`date:[* TO ${from}}`)).total, 10);
    assert.equal((await search('date:2026-03-01')).total, 1200, '20 hours of that day');
    assert.equal((await search('date:2026-03-02')).total, 0);

    const oldest = await search(undefined, { order: 'asc', offset: 5, limit: 3, withTotal: false });
    assert.deepEqual(oldest.rows.map((r) => r.log_id), rows.slice(5, 8).map((r) => r.log_id));
    assert.equal(oldest.total, undefined);
    const user = await stores.tenantLogs.search(tenantId, { userId: 'auth0|u7', order: 'desc', offset: 0, limit: 500, withTotal: true });
    assert.equal(user.total, 120);
    assert.ok(user.rows.every((r) => r.user_id === 'auth0|u7'));

    const after = await stores.tenantLogs.after(tenantId, rows[99]!.log_id, 5, ['seccft']);
    assert.deepEqual(after.map((r) => r.log_id), [103, 107, 111, 115, 119].map((i) => rows[i]!.log_id));
    assert.deepEqual(await stores.tenantLogs.after(tenantId, rows[0]!.log_id, 5, []), []);
    assert.equal((await stores.tenantLogs.after(tenantId, logIdFloor(T + 1199 * MINUTE), 10)).length, 1, 'the floor of an instant sorts before its events');
    const checkpoint = await search(undefined, { after: rows[1197]!.log_id, order: 'desc' });
    assert.deepEqual(checkpoint.rows.map((r) => r.log_id), [rows[1198]!.log_id, rows[1199]!.log_id], 'after a checkpoint: oldest first');

    assert.equal(await stores.tenantLogs.get(tenantId, rows[42]!.log_id).then((r) => r?.type), 'fp');
    assert.equal(await stores.tenantLogs.get(other, rows[42]!.log_id), undefined);

    assert.equal(await stores.tenantLogs.purgeBefore(new Date(T + 100 * MINUTE).toISOString()), 101, '100 of the tenant and 1 of the other');
    assert.equal((await search(undefined)).total, 1100);
  });

  function streamRow(tenantId: string, id: string, fields: Partial<LogStreamRow> = {}): LogStreamRow {
    const now = new Date(T).toISOString();
    return {
      tenant_id: tenantId, id, name: id, type: 'http', status: 'active', filters: [], sink: { httpEndpoint: 'https://logs.example.com/in' },
      authorization_enc: null, cursor: logIdFloor(T), attempts: 0, next_attempt_at: now, lease_owner: null, lease_until: null, last_error: null,
      created_at: now, updated_at: now, ...fields,
    };
  }

  it("a batch written while another transaction is open is not part of it (that one's rollback keeps it); in a unit of work it is", async () => {
    const tenantId = await newTenant();
    const awkward = ['NULL', '"quoted", {braces}, back\\slash', "it's ✓ é"];
    const rows = Array.from({ length: 3 }, (_, i) =>
      toLogRow(tenantId, { type: 'seccft', client_id: 'c', user_agent: awkward[i], client_name: awkward[2 - i], details: { n: i, text: awkward[i] } }, T + i),
    );
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const open = new Promise<void>((resolve) => (started = resolve));
    const rolledBack = h.unitOfWork().transaction(async (inner) => {
      await inner.tenantLogs.insertMany([toLogRow(tenantId, { type: 'feccft', client_id: 'c' }, T)]);
      started();
      await held;
      throw new Error('roll back');
    });
    await open;
    const written = stores.tenantLogs.insertMany(rows);
    release();
    await assert.rejects(rolledBack, /roll back/);
    await written;
    const found = await stores.tenantLogs.search(tenantId, { order: 'asc', offset: 0, limit: 10, withTotal: true });
    assert.equal(found.total, 3, "only the batch: the rolled-back transaction's row is gone");
    assert.deepEqual(found.rows.map((r) => [r.log_id, r.type, r.details]), rows.map((r) => [r.log_id, 'seccft', r.details]));
    assert.deepEqual(await stores.tenantLogs.get(tenantId, rows[1]!.log_id), rows[1], 'every field as recorded');
  });

  it('log streams: due, claimed by one of two processes, the cursor moved only by the holder', async () => {
    const tenantId = await newTenant();
    const now = new Date(T + MINUTE).toISOString();
    const lease = new Date(T + 2 * MINUTE).toISOString();
    await stores.logStreams.create(streamRow(tenantId, 'lst_a', { filters: [{ type: 'category', name: 'auth.login.fail' }] }));
    await stores.logStreams.create(streamRow(tenantId, 'lst_paused', { status: 'paused' }));
    await stores.logStreams.create(streamRow(tenantId, 'lst_later', { next_attempt_at: lease }));
    assert.deepEqual((await stores.logStreams.due(now, 10)).filter((s) => s.tenant_id === tenantId).map((s) => s.id), ['lst_a']);
    assert.deepEqual((await stores.logStreams.get(tenantId, 'lst_a'))?.filters, [{ type: 'category', name: 'auth.login.fail' }]);

    const claims = await Promise.all(['p1', 'p2'].map((owner) => stores.logStreams.claim(tenantId, 'lst_a', owner, now, lease)));
    assert.deepEqual(claims.filter(Boolean).length, 1, 'one process wins');
    const winner = claims[0] ? 'p1' : 'p2';
    const loser = claims[0] ? 'p2' : 'p1';
    assert.ok(!(await stores.logStreams.due(now, 10)).some((s) => s.id === 'lst_a'), 'a held stream is not due');
    assert.equal(await stores.logStreams.advance(tenantId, 'lst_a', loser, '900X', now), false);
    assert.equal(await stores.logStreams.advance(tenantId, 'lst_a', winner, `${logIdFloor(T)}1`, now), true);
    assert.equal((await stores.logStreams.get(tenantId, 'lst_a'))?.cursor, `${logIdFloor(T)}1`);
    await stores.logStreams.failed(tenantId, 'lst_a', winner, 3, 'HTTP 500', lease);
    const failed = await stores.logStreams.get(tenantId, 'lst_a');
    assert.equal(failed?.attempts, 3);
    assert.equal(failed?.last_error, 'HTTP 500');
    assert.equal(failed?.lease_owner, null, 'the lease is released');
    assert.equal(await stores.logStreams.claim(tenantId, 'lst_a', 'p3', new Date(T + 3 * MINUTE).toISOString(), lease), true, 'an expired lease is taken over');

    assert.equal(await stores.logStreams.count(tenantId), 3);
    const updated = await stores.logStreams.update(tenantId, 'lst_paused', { status: 'active', name: 'renamed' }, now);
    assert.equal(updated?.name, 'renamed');
    assert.equal(await stores.logStreams.delete(tenantId, 'lst_paused'), true);
    assert.equal(await stores.logStreams.delete(tenantId, 'lst_paused'), false);
    assert.deepEqual((await stores.logStreams.list(tenantId)).map((s) => s.id), ['lst_a', 'lst_later']);
  });
});
