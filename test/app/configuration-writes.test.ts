/**
 * Cache invalidation happens in one place (src/app/configuration-writes.ts):
 * a configuration write through the stores the services get invalidates its
 * tenant once committed, and the cached issuance lookups see the change;
 * inside a unit of work only after the commit, and a rolled-back one
 * invalidates nothing.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CONFIGURATION_WRITES } from '../../src/app/configuration-writes.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { insertClient } from '../helpers/fixtures.js';

describe('configuration writes invalidate their tenant', () => {
  let t: TestApp;
  const heard: string[] = [];

  before(async () => {
    t = await createTestApp();
    t.ctx.invalidation.onInvalidate((tenantId) => heard.push(tenantId));
  });
  after(() => t.close());

  it('a write outside a transaction: invalidated at once, and the cached lookup rereads', async () => {
    const { client_id } = await insertClient(t);
    const cached = await t.ctx.lookups.client(t.tenant.id, client_id);
    assert.deepEqual([...cached!.grantTypes], ['client_credentials']);

    heard.length = 0;
    assert.equal(await t.ctx.stores.clients.update(t.tenant.id, client_id, { grant_types: ['client_credentials', 'password'] }), true);
    assert.deepEqual(heard, [t.tenant.id]);
    const reread = await t.ctx.lookups.client(t.tenant.id, client_id);
    assert.deepEqual([...reread!.grantTypes], ['client_credentials', 'password']);
  });

  it('reads do not invalidate', async () => {
    heard.length = 0;
    await t.ctx.stores.clients.list(t.tenant.id, {}, { kind: 'keyset', limit: 5 }, false);
    await t.ctx.stores.resourceServers.list(t.tenant.id, { offset: 0, limit: 5, withTotal: true });
    assert.deepEqual(heard, []);
  });

  it('inside a unit of work: nothing before the commit, once per tenant after it (nested work included)', async () => {
    const { client_id } = await insertClient(t);
    heard.length = 0;
    await t.ctx.unitOfWork.transaction(async (stores, joined) => {
      await stores.clients.update(t.tenant.id, client_id, { name: 'renamed' });
      await joined.transaction((inner) => inner.clients.update(t.tenant.id, client_id, { description: 'nested' }));
      assert.deepEqual(heard, [], 'not before the commit');
    });
    assert.deepEqual(heard, [t.tenant.id]);
    assert.equal((await t.ctx.lookups.client(t.tenant.id, client_id))!.row.name, 'renamed');
  });

  it('a rolled-back unit of work invalidates nothing and changes nothing', async () => {
    const { client_id } = await insertClient(t);
    heard.length = 0;
    await assert.rejects(
      t.ctx.unitOfWork.transaction(async (stores) => {
        await stores.clients.update(t.tenant.id, client_id, { name: 'never' });
        throw new Error('roll back');
      }),
      /roll back/,
    );
    assert.deepEqual(heard, []);
    assert.equal((await t.ctx.stores.clients.get(t.tenant.id, client_id))!.name, 'Test client');
  });

  it('every listed write is a method of its store', () => {
    for (const [store, methods] of Object.entries(CONFIGURATION_WRITES)) {
      for (const method of methods) {
        assert.equal(typeof (t.ctx.stores as unknown as Record<string, Record<string, unknown>>)[store]![method], 'function', `${store}.${method}`);
      }
    }
  });
});
