/**
 * The execution records of Actions on every store implementation: the
 * multi-row write (`recordMany`, a later record of the same id replacing the
 * earlier), and the buffered store the runtime records through
 * (src/domain/actions/buffered-executions.ts): nothing is written until a
 * flush, a read writes what is buffered first, `close` writes the rest.
 */
import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Stores } from '../../src/domain/stores.js';
import { BufferedExecutionStore } from '../../src/domain/actions/buffered-executions.js';
import { newExecution } from '../../src/domain/actions/executions.js';
import { isoAt } from '../../src/platform/clock.js';
import { forEachStoreFactory } from '../helpers/databases.js';
import { tenantRow } from '../helpers/rows.js';

const T = Date.parse('2026-03-01T00:00:00.000Z');
const silent = { warn: () => undefined };

await forEachStoreFactory('action execution storage', (h) => {
  let stores: Stores;
  let tenantId: string;
  before(async () => {
    stores = h.stores();
    const row = tenantRow();
    await stores.tenants.create({ tenant: row, signingKeys: [], clients: [], resourceServers: [], clientGrants: [] });
    tenantId = row.id;
  });

  it('writes 1200 executions in chunks; a later record of the same id replaces the earlier one', async () => {
    const rows = Array.from({ length: 1200 }, (_, i) => newExecution(tenantId, 'credentials-exchange', T + i, 'final', [{ action_name: `a${i}`, started_at: isoAt(T + i), ended_at: isoAt(T + i + 1), logs: '' }]));
    const partial = newExecution(tenantId, 'post-login', T, 'partial');
    const final = { ...partial, status: 'final' as const, updated_at: isoAt(T + 10), results: [{ action_name: 'done', started_at: isoAt(T), ended_at: isoAt(T + 10), logs: 'ok' }] };
    await stores.actionExecutions.recordMany([...rows, partial, final]);
    const now = isoAt(T + 1000);
    assert.equal((await stores.actionExecutions.get(tenantId, rows[0]!.id, now))?.results[0]?.action_name, 'a0');
    assert.equal((await stores.actionExecutions.get(tenantId, rows[1199]!.id, now))?.results[0]?.action_name, 'a1199');
    const read = await stores.actionExecutions.get(tenantId, partial.id, now);
    assert.equal(read?.status, 'final');
    assert.equal(read?.updated_at, isoAt(T + 10));
    assert.deepEqual(read?.results.map((r) => r.action_name), ['done']);
    // And across two writes: the second updates the stored row.
    await stores.actionExecutions.recordMany([{ ...final, status: 'canceled', updated_at: isoAt(T + 20) }]);
    assert.equal((await stores.actionExecutions.get(tenantId, partial.id, now))?.status, 'canceled');
    await stores.actionExecutions.recordMany([]);
  });

  it('buffers records until a flush; a read writes the buffer first; close writes the rest', async () => {
    const buffered = new BufferedExecutionStore(stores.actionExecutions, silent, { intervalMs: 60_000 });
    const now = isoAt(T + 1000);
    const first = newExecution(tenantId, 'credentials-exchange', T, 'final');
    await buffered.record(first);
    assert.equal(buffered.pending, 1);
    assert.equal(await stores.actionExecutions.get(tenantId, first.id, now), undefined, 'not written on the request path');
    assert.equal((await buffered.get(tenantId, first.id, now))?.id, first.id, 'a read finds what this process recorded');
    assert.equal(buffered.pending, 0);
    const second = newExecution(tenantId, 'credentials-exchange', T, 'final');
    await buffered.recordMany([second]);
    assert.equal(await stores.actionExecutions.get(tenantId, second.id, now), undefined);
    await buffered.close();
    assert.equal((await stores.actionExecutions.get(tenantId, second.id, now))?.id, second.id, 'close wrote it');
    await buffered.record(newExecution(tenantId, 'credentials-exchange', T, 'final'));
    assert.equal(buffered.pending, 0, 'nothing is taken after close');
  });
});
