/**
 * The job queue's contract on SQLite and PostgreSQL: a job is claimed by one
 * owner at a time (also when many ask at once), progress is recorded only by
 * the lease holder, an expired lease is claimed again, errors of an item are
 * recorded once, files round-trip.
 */
import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import type { Stores } from '../../src/domain/stores.js';
import type { JobRow } from '../../src/domain/rows.js';
import { newPrefixedId, randomString } from '../../src/platform/crypto/ids.js';
import type { Db } from '../../src/storage/database.js';
import { forEachStoreFactory } from '../helpers/databases.js';

const T0 = '2024-01-01T00:00:00.000Z';
const at = (s: number) => new Date(Date.parse(T0) + s * 1000).toISOString();

await forEachStoreFactory('job storage', (h) => {
  let db: Db;
  let jobs: Stores['jobs'];
  before(() => {
    db = h.db();
    jobs = h.stores().jobs;
  });

  async function tenant(): Promise<string> {
    const tenantId = newPrefixedId('ten');
    const name = `t-${randomString(10).toLowerCase()}`;
    await db.insertInto('tenants').values({ id: tenantId, name, domain: `${name}.example.test`, settings: '{}', created_at: T0 }).execute();
    return tenantId;
  }

  function job(tenantId: string, created = T0): JobRow {
    return {
      tenant_id: tenantId, id: newPrefixedId('job', 16), type: 'users_import', status: 'pending', connection_id: null, external_id: null,
      params: { upsert: false }, progress: 0, summary: { failed: 0, updated: 0, inserted: 0, total: 0 }, status_details: null,
      lease_owner: null, lease_expires_at: null, created_at: created, updated_at: created, completed_at: null,
    };
  }

  it('claims a pending job once, even when several owners ask at once; the lease holder alone advances it', async () => {
    const t = await tenant();
    const row = job(t, '2000-01-01T00:00:00.000Z');
    await jobs.insert(row, '[{"email":"a@example.com"}]');
    assert.equal(await jobs.file(t, row.id, 'input'), '[{"email":"a@example.com"}]');
    const claims = await Promise.all(['a', 'b', 'c', 'd'].map((owner) => jobs.claim(owner, at(0), at(60))));
    const mine = claims.filter((c) => c?.id === row.id);
    assert.equal(mine.length, 1, 'exactly one owner got the job');
    const owner = mine[0]!.lease_owner!;
    assert.equal(mine[0]!.status, 'processing');
    const summary = { failed: 1, updated: 0, inserted: 4, total: 5 };
    assert.equal(await jobs.advance(t, row.id, 'someone-else', { progress: 5, summary, now: at(1), leaseUntil: at(61) }), false);
    assert.equal(await jobs.advance(t, row.id, owner, { progress: 5, summary, now: at(1), leaseUntil: at(61) }), true);
    assert.deepEqual({ ...(await jobs.get(t, row.id))!, updated_at: '' }, { ...row, status: 'processing', progress: 5, summary, lease_owner: owner, lease_expires_at: at(61), updated_at: '' });
    // Not claimable while the lease holds; claimable by another once it ran out.
    assert.notEqual((await jobs.claim('late', at(30), at(90)))?.id, row.id);
    const again = await jobs.claim('late', at(62), at(122));
    assert.equal(again?.id, row.id);
    assert.equal(again?.progress, 5, 'resumed at the committed progress');
    assert.equal(await jobs.finish(t, row.id, owner, { status: 'completed', summary, statusDetails: null, now: at(63) }), false, 'the old owner lost it');
    assert.equal(await jobs.finish(t, row.id, 'late', { status: 'completed', summary, statusDetails: null, now: at(63) }), true);
    const done = (await jobs.get(t, row.id))!;
    assert.equal(done.status, 'completed');
    assert.equal(done.lease_owner, null);
    assert.equal(done.completed_at, at(63));
    assert.notEqual((await jobs.claim('x', at(1000), at(1060)))?.id, row.id, 'a completed job is never claimed');
  });

  it('records each item\'s errors once and lists them in file order; keeps output files', async () => {
    const t = await tenant();
    const row = job(t);
    await jobs.insert(row);
    const error = (item: number, message: string) => ({ tenant_id: t, job_id: row.id, item, line: item + 2, user: { email: `u${item}` }, errors: [{ code: 'INVALID_FORMAT', message, path: 'email' }] });
    await jobs.addErrors([error(3, 'first'), error(1, 'first')]);
    await jobs.addErrors([error(3, 'again'), error(2, 'first')]);
    const listed = await jobs.errors(t, row.id, 10);
    assert.deepEqual(listed.map((e) => [e.item, e.line, e.errors[0]!.message]), [[1, 3, 'first'], [2, 4, 'first'], [3, 5, 'first']]);
    assert.equal((await jobs.errors(t, row.id, 2)).length, 2);
    await jobs.putFile({ tenant_id: t, job_id: row.id, kind: 'output', content: 'a' });
    await jobs.putFile({ tenant_id: t, job_id: row.id, kind: 'output', content: 'b' });
    assert.equal(await jobs.file(t, row.id, 'output'), 'b');
    assert.equal(await jobs.file(t, row.id, 'input'), undefined);
    assert.equal(await jobs.get('ten_other', row.id), undefined);
  });
});
