/**
 * Behavioural conformance of ConnectionStore against SQLite and PostgreSQL:
 * the same cases through the store interface, on migrated schemas. Each case
 * works in a tenant of its own.
 */
import { it, before } from 'node:test';
import assert from 'node:assert/strict';
import { type Db } from '../../src/storage/database.js';
import type { ClientRow } from '../../src/domain/rows.js';
import { randomString } from '../../src/platform/crypto/ids.js';
import { newConnectionId } from '../../src/domain/connections/model.js';
import type { Stores } from '../../src/domain/stores.js';
import { forEachStoreFactory } from '../helpers/databases.js';
import { byCodepoint, connectionRow, T0, tenantRow } from '../helpers/rows.js';
import { isUniqueViolation } from '../../src/platform/database-errors.js';
import { toStored } from '../../src/storage/json-columns.js';



function clientRow(tenantId: string): ClientRow {
  return {
    tenant_id: tenantId, client_id: randomString(32), name: 'App', description: '', app_type: null, is_first_party: 1, global: 0,
    token_endpoint_auth_method: 'client_secret_post', client_authentication_methods: null, grant_types: [], client_secret_enc: null,
    created_at: T0, updated_at: T0, external_client_id: null, config: {},
  };
}


const ids = (rows: { id: string }[]): string[] => rows.map((r) => r.id);


await forEachStoreFactory('connection storage', (h) => {
  // Clients and a user are seeded, and the link and user tables read, in SQL.
  let db: Db;
  let tenants: Stores['tenants'];
  let connections: Stores['connections'];

  before(() => {
    db = h.db();
    ({ tenants, connections } = h.stores());
  });

  async function newTenant(clientCount = 0): Promise<{ tenantId: string; clientIds: string[] }> {
    const tenant = tenantRow();
    await tenants.create({ tenant, signingKeys: [], clients: [], resourceServers: [], clientGrants: [] });
    const clients = Array.from({ length: clientCount }, () => clientRow(tenant.id));
    if (clients.length > 0) await db.insertInto('clients').values(clients.map((c) => toStored('clients', c))).execute();
    return { tenantId: tenant.id, clientIds: clients.map((c) => c.client_id).sort(byCodepoint) };
  }

  it('insert, get, getByName (exact), and a unique name per tenant', async () => {
    const { tenantId, clientIds } = await newTenant(2);
    const row = connectionRow(tenantId, { name: 'Users' });
    await connections.insert(row, clientIds);
    assert.deepEqual(await connections.get(tenantId, row.id), row);
    assert.deepEqual(await connections.getByName(tenantId, 'Users'), row);
    assert.equal(await connections.getByName(tenantId, 'users'), undefined);
    assert.deepEqual(await connections.enabledClients(tenantId, row.id), clientIds);
    const error = await connections.insert(connectionRow(tenantId, { name: 'Users' }), []).then(() => undefined, (e: unknown) => e);
    assert.ok(isUniqueViolation(error), String(error));
    // Another tenant may use the name.
    const other = await newTenant();
    await connections.insert(connectionRow(other.tenantId, { name: 'Users' }), []);
  });

  it('insert is atomic: an unknown client leaves no connection behind', async () => {
    const { tenantId } = await newTenant();
    const row = connectionRow(tenantId);
    await assert.rejects(connections.insert(row, ['nosuchclient']));
    assert.equal(await connections.get(tenantId, row.id), undefined);
  });

  it('list pages by id (offset with totals, keyset) and filters by strategy and name', async () => {
    const { tenantId } = await newTenant();
    const rows = [connectionRow(tenantId), connectionRow(tenantId), connectionRow(tenantId, { strategy: 'other' })];
    for (const r of rows) await connections.insert(r, []);
    const sorted = ids(rows).sort(byCodepoint);
    assert.deepEqual(ids((await connections.list(tenantId, {}, { kind: 'offset', offset: 0, limit: 10, withTotal: false })).rows), sorted);
    const page = await connections.list(tenantId, {}, { kind: 'offset', offset: 1, limit: 1, withTotal: true });
    assert.deepEqual({ ids: ids(page.rows), total: page.total }, { ids: sorted.slice(1, 2), total: 3 });
    assert.deepEqual(ids((await connections.list(tenantId, {}, { kind: 'keyset', after: sorted[0]!, limit: 10 })).rows), sorted.slice(1));
    const auth0 = ids(rows.filter((r) => r.strategy === 'auth0')).sort(byCodepoint);
    assert.deepEqual(ids((await connections.list(tenantId, { strategies: ['auth0'] }, { kind: 'keyset', limit: 10 })).rows), auth0);
    assert.deepEqual((await connections.list(tenantId, { strategies: [] }, { kind: 'offset', offset: 0, limit: 10, withTotal: true })), { rows: [], total: 0 });
    assert.deepEqual(ids((await connections.list(tenantId, { name: rows[1]!.name }, { kind: 'keyset', limit: 10 })).rows), [rows[1]!.id]);
  });

  it('update applies changes and replaces enabled clients; false for an unknown connection', async () => {
    const { tenantId, clientIds } = await newTenant(3);
    const row = connectionRow(tenantId);
    await connections.insert(row, clientIds.slice(0, 2));
    assert.equal(await connections.update(tenantId, row.id, { options: { passwordPolicy: 'good' } }, [clientIds[2]!]), true);
    assert.deepEqual((await connections.get(tenantId, row.id))?.options, { passwordPolicy: 'good' });
    assert.deepEqual(await connections.enabledClients(tenantId, row.id), [clientIds[2]]);
    assert.equal(await connections.update(tenantId, row.id, {}), true);
    assert.deepEqual(await connections.enabledClients(tenantId, row.id), [clientIds[2]]);
    assert.equal(await connections.update(tenantId, newConnectionId(), { display_name: 'x' }), false);
  });

  it('setClientStatus enables and disables idempotently; enabledClients pages by client_id; enabledForClient lists by name', async () => {
    const { tenantId, clientIds } = await newTenant(3);
    const a = connectionRow(tenantId, { name: 'b-conn' });
    const b = connectionRow(tenantId, { name: 'a-conn' });
    await connections.insert(a, []);
    await connections.insert(b, [clientIds[0]!]);
    await connections.setClientStatus(tenantId, a.id, clientIds.map((client_id) => ({ client_id, status: true })));
    await connections.setClientStatus(tenantId, a.id, [{ client_id: clientIds[0]!, status: true }]);
    assert.deepEqual(await connections.enabledClients(tenantId, a.id), clientIds);
    assert.deepEqual(await connections.enabledClients(tenantId, a.id, { after: clientIds[0]!, limit: 1 }), [clientIds[1]]);
    await connections.setClientStatus(tenantId, a.id, [{ client_id: clientIds[1]!, status: false }, { client_id: clientIds[1]!, status: false }]);
    assert.deepEqual(await connections.enabledClients(tenantId, a.id), [clientIds[0], clientIds[2]]);
    assert.deepEqual(ids(await connections.enabledForClient(tenantId, clientIds[0]!)), [b.id, a.id]);
    assert.deepEqual(ids(await connections.enabledForClient(tenantId, clientIds[1]!)), []);
    assert.deepEqual(await connections.existingClients(tenantId, [clientIds[0]!, 'nosuchclient']), new Set([clientIds[0]]));
  });

  it('delete removes the connection, its client links and its users; false when absent', async () => {
    const { tenantId, clientIds } = await newTenant(1);
    const row = connectionRow(tenantId);
    await connections.insert(row, clientIds);
    await db
      .insertInto('users')
      .values({
        tenant_id: tenantId, user_id: 'auth0|u1', connection_id: row.id, email: null, email_lower: null, email_verified: 0, username: null,
        username_lower: null, phone_number: null, phone_verified: 0, password_hash: null, blocked: 0, name: null, given_name: null, family_name: null,
        nickname: null, picture: null, app_metadata: '{}', user_metadata: '{}', created_at: T0, updated_at: T0, last_login: null,
        last_password_reset: null, logins_count: 0,
      } as never)
      .execute();
    assert.equal(await connections.delete(tenantId, row.id), true);
    assert.equal(await connections.delete(tenantId, row.id), false);
    assert.deepEqual(await connections.enabledForClient(tenantId, clientIds[0]!), []);
    assert.deepEqual(await db.selectFrom('users').select('user_id').where('tenant_id', '=', tenantId).execute(), []);
    assert.deepEqual(await db.selectFrom('connection_clients').select('client_id').where('tenant_id', '=', tenantId).execute(), []);
  });
});
