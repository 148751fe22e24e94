/**
 * The one-time-use store's contract (client assertion and DPoP proof `jti`s),
 * through the store factory on every implementation: the first use of a key
 * wins, a replay before expiry is refused, an expired record is taken over,
 * keys are separate per tenant and purpose, and of concurrent first uses
 * exactly one wins.
 */
import { it, before } from 'node:test';
import assert from 'node:assert/strict';
import type { Stores } from '../../src/domain/stores.js';
import { newSecret, secretHash } from '../../src/domain/secrets.js';
import { forEachStoreFactory } from '../helpers/databases.js';
import { at, T0, tenantRow } from '../helpers/rows.js';

await forEachStoreFactory('one-time-use storage', (h) => {
  let stores: Stores;
  before(() => {
    stores = h.stores();
  });

  async function newTenant(): Promise<string> {
    const row = tenantRow();
    await stores.tenants.create({ tenant: row, signingKeys: [], clients: [], resourceServers: [], clientGrants: [] });
    return row.id;
  }

  it('the first use wins; a replay before expiry is refused; an expired record is taken over', async () => {
    const tenantId = await newTenant();
    const key = secretHash(newSecret());
    assert.equal(await stores.oneTimeUses.use(tenantId, 'client_assertion', key, at(60), T0), true);
    assert.equal(await stores.oneTimeUses.use(tenantId, 'client_assertion', key, at(120), at(30)), false, 'replay while live');
    assert.equal(await stores.oneTimeUses.use(tenantId, 'client_assertion', key, at(120), at(59)), false, 'replay a second before expiry');
    assert.equal(await stores.oneTimeUses.use(tenantId, 'client_assertion', key, at(180), at(60)), true, 'taken over at expiry');
    assert.equal(await stores.oneTimeUses.use(tenantId, 'client_assertion', key, at(240), at(179)), false, 'the new record holds until its own expiry');
  });

  it('keys are separate per tenant and per purpose', async () => {
    const a = await newTenant();
    const b = await newTenant();
    const key = secretHash(newSecret());
    assert.equal(await stores.oneTimeUses.use(a, 'client_assertion', key, at(60), T0), true);
    assert.equal(await stores.oneTimeUses.use(a, 'dpop_proof', key, at(60), T0), true, 'another purpose');
    assert.equal(await stores.oneTimeUses.use(b, 'client_assertion', key, at(60), T0), true, 'another tenant');
    assert.equal(await stores.oneTimeUses.use(a, 'client_assertion', key, at(60), T0), false);
  });

  it('of concurrent first uses exactly one wins', async () => {
    const tenantId = await newTenant();
    const key = secretHash(newSecret());
    const results = await Promise.all(Array.from({ length: 8 }, () => stores.oneTimeUses.use(tenantId, 'client_assertion', key, at(60), T0)));
    assert.equal(results.filter(Boolean).length, 1);
  });
});
