/**
 * The rekey job on the real app and database, driven through the job runner:
 * a graceful stop mid-walk hands the job back at its last commit (the old key
 * kept, values under both keys, all readable) and another runner finishes it;
 * a row rewritten by its owner after the walk read it is left as its owner
 * wrote it (the conditional rewrite); a value no key opens fails the job and
 * keeps the old keys.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sealedValueCensus } from '../../../src/domain/encryption/rekey.js';
import { SEALED_VALUE_SOURCES } from '../../../src/domain/encryption/sealed-values.js';
import { JobRunner } from '../../../src/domain/jobs/runner.js';
import { createTestApp, type TestApp } from '../../helpers/app.js';

interface Key {
  kid: string;
  type: string;
  state: string;
}

describe('rekey job', () => {
  let t: TestApp;
  const clients: { client_id: string; client_secret: string }[] = [];
  const api = (method: string, url: string, body?: unknown) => t.management(method, `/api/v2${url}`, body === undefined ? {} : { body });
  const keys = async () => (await api('GET', '/keys/encryption')).json() as Key[];
  const census = () => sealedValueCensus(t.ctx, t.tenant.id);
  const job = async () => t.ctx.database.db.selectFrom('jobs').selectAll().where('type', '=', 'encryption_rekey').orderBy('created_at', 'desc').executeTakeFirstOrThrow();

  before(async () => {
    t = await createTestApp({ env: { GATEHOUSE_ENCRYPTION_KEYS_REFRESH: '0.01', GATEHOUSE_REKEY_BATCH: '1', GATEHOUSE_REKEY_PAUSE: '0.02', GATEHOUSE_JOB_LEASE: '1' } });
    for (let i = 0; i < 20; i++) clients.push((await api('POST', '/clients', { name: `c${i}`, app_type: 'non_interactive' })).json());
  });
  after(() => t?.close());

  it('a graceful stop hands the job back at its last commit; another runner finishes it', async () => {
    assert.equal((await api('POST', '/keys/encryption/rekey')).statusCode, 204);
    assert.equal((await job()).status, 'pending');
    const first = new JobRunner(t.ctx);
    const running = first.runOnce();
    // Stop once some client secrets are under the new key.
    const encryptionKid = (await keys()).find((k) => k.type === 'tenant-encryption-key')!.kid;
    for (let i = 0; i < 400; i++) {
      if (((await census()).byKid[encryptionKid] ?? 0) >= 3) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    first.stop();
    await running;
    const handedBack = await job();
    assert.equal(handedBack.status, 'processing');
    assert.ok(handedBack.progress >= 1 && handedBack.progress < 1 + SEALED_VALUE_SOURCES.length, `progress ${handedBack.progress}`);
    assert.ok(Date.parse(handedBack.lease_expires_at!) <= t.ctx.now(), 'the lease is handed back');
    const midway = await census();
    assert.equal(midway.unreadable, 0);
    assert.ok((midway.byKid[encryptionKid] ?? 0) >= 3 && (midway.byKid[t.ctx.box.rootKid] ?? 0) > 0, JSON.stringify(midway));
    for (const client of clients) assert.equal((await api('GET', `/clients/${client.client_id}`)).json().client_secret, client.client_secret);
    // Another rekey is refused while this one is queued.
    assert.equal((await api('POST', '/keys/encryption/rekey')).statusCode, 409);

    assert.equal(await new JobRunner(t.ctx).runOnce(), 1);
    assert.equal((await job()).status, 'completed');
    const done = await census();
    assert.deepEqual(done, { byKid: { [encryptionKid]: done.byKid[encryptionKid]! }, unreadable: 0 });
    for (const client of clients) assert.equal((await api('GET', `/clients/${client.client_id}`)).json().client_secret, client.client_secret);
  });

  it('a row rewritten after it was read is left as its owner wrote it', async () => {
    const source = SEALED_VALUE_SOURCES.find((s) => s.table === 'clients')!;
    const [row] = await t.ctx.stores.sealedValues.scan(source, t.tenant.id, undefined, 1);
    const stale = { client_secret_enc: row!.client_secret_enc! };
    const rotated = await api('POST', `/clients/${row!.client_id}/rotate-secret`);
    assert.equal(rotated.statusCode, 200, rotated.body);
    const written = await t.ctx.stores.sealedValues.replace(source, t.tenant.id, [row!.client_id!], stale, { client_secret_enc: 'v1.stale.value' });
    assert.equal(written, false);
    assert.equal((await api('GET', `/clients/${row!.client_id}`)).json().client_secret, rotated.json().client_secret);
    const mine = clients.find((c) => c.client_id === row!.client_id);
    if (mine) mine.client_secret = rotated.json().client_secret;
  });

  it('a value no key opens fails the job and keeps the old keys', async () => {
    const victim = clients[5]!;
    await t.ctx.database.db.updateTable('clients').set({ client_secret_enc: 'v1.AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }).where('client_id', '=', victim.client_id).execute();
    const old = (await keys()).find((k) => k.type === 'tenant-encryption-key' && k.state === 'active')!;
    assert.equal((await api('POST', '/keys/encryption/rekey')).statusCode, 204);
    assert.equal(await new JobRunner(t.ctx).runOnce(), 1);
    const failed = await job();
    assert.equal(failed.status, 'failed');
    assert.match(failed.status_details!, /1 sealed value\(s\) could not be opened with any key of the tenant; the old keys are kept/);
    assert.equal((await keys()).find((k) => k.kid === old.kid)!.state, 'deactivated');
    const after = await census();
    assert.equal(after.unreadable, 1);
    for (const client of clients.filter((c) => c !== victim)) assert.equal((await api('GET', `/clients/${client.client_id}`)).json().client_secret, client.client_secret);
  });
});
