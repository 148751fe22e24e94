/**
 * The upstream token set store's contract (Token Vault, identities' IdP
 * tokens), on every implementation: one set per user and connection (a
 * later keep replaces its tokens and keeps its id), found by connection
 * name, listed per user, updated, deleted (an unknown id changes nothing),
 * and gone with the user.
 */
import { it, before } from 'node:test';
import assert from 'node:assert/strict';
import type { Stores } from '../../src/domain/stores.js';
import type { UpstreamTokenSetRow } from '../../src/domain/upstream-tokens/rows.js';
import { forEachStoreFactory } from '../helpers/databases.js';
import { at, connectionRow, T0, tenantRow, userRow } from '../helpers/rows.js';

await forEachStoreFactory('upstream token set storage', (h) => {
  let stores: Stores;
  before(() => {
    stores = h.stores();
  });

  async function fixture(): Promise<{ tenantId: string; userId: string; connection: { id: string; name: string } }> {
    const tenant = tenantRow();
    await stores.tenants.create({ tenant, signingKeys: [], clients: [], resourceServers: [], clientGrants: [] });
    const connection = connectionRow(tenant.id, { name: 'upstream', strategy: 'oidc' });
    await stores.connections.insert(connection, []);
    const user = userRow(tenant.id, connection.id, { user_id: 'oidc|upstream|ada' });
    await stores.users.insert(user);
    return { tenantId: tenant.id, userId: user.user_id, connection: { id: connection.id, name: connection.name } };
  }

  const set = (f: Awaited<ReturnType<typeof fixture>>, overrides: Partial<UpstreamTokenSetRow> = {}): UpstreamTokenSetRow => ({
    tenant_id: f.tenantId,
    id: 'fcts_one',
    user_id: f.userId,
    connection_id: f.connection.id,
    connection: f.connection.name,
    access_token: 'sealed-access',
    refresh_token: 'sealed-refresh',
    scope: 'openid',
    access_token_expires_at: at(300),
    issued_at: T0,
    last_used_at: null,
    ...overrides,
  });

  it('one set per user and connection: a later keep replaces the tokens and keeps the id', async () => {
    const f = await fixture();
    await stores.upstreamTokenSets.keep(set(f));
    await stores.upstreamTokenSets.keep(set(f, { id: 'fcts_two', access_token: 'sealed-access-2', refresh_token: null, issued_at: at(10) }));
    const sets = await stores.upstreamTokenSets.list(f.tenantId, f.userId);
    assert.equal(sets.length, 1);
    assert.equal(sets[0]!.id, 'fcts_one');
    assert.equal(sets[0]!.access_token, 'sealed-access-2');
    assert.equal(sets[0]!.refresh_token, null);
    assert.deepEqual(await stores.upstreamTokenSets.find(f.tenantId, f.userId, 'upstream'), sets[0]);
    assert.equal(await stores.upstreamTokenSets.find(f.tenantId, f.userId, 'other'), undefined);
  });

  it('update, delete (an unknown id changes nothing), and gone with the user', async () => {
    const f = await fixture();
    await stores.upstreamTokenSets.keep(set(f));
    await stores.upstreamTokenSets.update(f.tenantId, 'fcts_one', { last_used_at: at(20), access_token: 'refreshed' });
    const found = await stores.upstreamTokenSets.find(f.tenantId, f.userId, 'upstream');
    assert.equal(found!.last_used_at, at(20));
    assert.equal(found!.access_token, 'refreshed');
    await stores.upstreamTokenSets.delete(f.tenantId, f.userId, 'fcts_unknown');
    assert.equal((await stores.upstreamTokenSets.list(f.tenantId, f.userId)).length, 1);
    await stores.users.delete(f.tenantId, f.userId);
    assert.deepEqual(await stores.upstreamTokenSets.list(f.tenantId, f.userId), []);
  });
});
