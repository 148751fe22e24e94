/**
 * The store of the SAML service providers each SSO session answered, against
 * SQLite and PostgreSQL: one row per session and client (a later Response
 * replaces it), listed per session in order, scoped by tenant, gone with the
 * session and with the client.
 */
import { it, before } from 'node:test';
import assert from 'node:assert/strict';
import type { Db } from '../../src/storage/database.js';
import { newClientId } from '../../src/platform/crypto/ids.js';
import type { Stores } from '../../src/domain/stores.js';
import type { SamlpParticipantRow } from '../../src/domain/rows.js';
import { forEachStoreFactory } from '../helpers/databases.js';
import { at, connectionRow, T0, tenantRow, userRow } from '../helpers/rows.js';
import { newSecret, secretHash } from '../../src/domain/secrets.js';

await forEachStoreFactory('samlp session storage', (h) => {
  let db: Db;
  let stores: Stores;
  before(() => {
    db = h.db();
    stores = h.stores();
  });

  /** A tenant with a user, a session of that user and two clients. */
  async function seeded(): Promise<{ tenantId: string; sessionHash: string; clients: string[] }> {
    const tenant = tenantRow();
    await db.insertInto('tenants').values({ ...tenant, settings: '{}' }).execute();
    const connection = connectionRow(tenant.id);
    await stores.connections.insert(connection, []);
    const user = userRow(tenant.id, connection.id);
    await stores.users.insert(user);
    const sessionHash = secretHash(newSecret());
    await stores.sessions.insert({ tenant_id: tenant.id, id_hash: sessionHash, user_id: user.user_id, auth_time: 0, created_at: T0, expires_at: at(3600) });
    const clients = [newClientId(), newClientId()];
    for (const clientId of clients) {
      await stores.clients.insert({
        tenant_id: tenant.id, client_id: clientId, name: 'SP', description: '', app_type: 'regular_web', is_first_party: 0, global: 0,
        token_endpoint_auth_method: 'none', client_authentication_methods: null, grant_types: [], client_secret_enc: null,
        created_at: T0, updated_at: T0, external_client_id: null, config: {},
      });
    }
    return { tenantId: tenant.id, sessionHash, clients };
  }

  const row = (tenantId: string, sessionHash: string, clientId: string, seconds: number, nameId = 'auth0|1'): SamlpParticipantRow => ({
    tenant_id: tenantId, session_hash: sessionHash, client_id: clientId, name_id: nameId,
    name_id_format: 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified', session_index: `_idx${seconds}`, created_at: at(seconds),
  });

  it('records one row per session and client, the latest Response replacing the earlier one', async () => {
    const { tenantId, sessionHash, clients } = await seeded();
    await stores.samlpSessions.record(row(tenantId, sessionHash, clients[1]!, 1));
    await stores.samlpSessions.record(row(tenantId, sessionHash, clients[0]!, 2));
    await stores.samlpSessions.record(row(tenantId, sessionHash, clients[1]!, 3, 'ada@example.com'));
    const listed = await stores.samlpSessions.listForSession(tenantId, sessionHash);
    assert.deepEqual(listed.map((r) => [r.client_id, r.name_id, r.session_index]), [
      [clients[0], 'auth0|1', '_idx2'],
      [clients[1], 'ada@example.com', '_idx3'],
    ]);
    const other = await seeded();
    assert.deepEqual(await stores.samlpSessions.listForSession(other.tenantId, sessionHash), [], 'scoped by tenant');
  });

  it('goes with its client and with its session; an unknown session is refused', async () => {
    const { tenantId, sessionHash, clients } = await seeded();
    await stores.samlpSessions.record(row(tenantId, sessionHash, clients[0]!, 1));
    await stores.samlpSessions.record(row(tenantId, sessionHash, clients[1]!, 2));
    await stores.clients.delete(tenantId, clients[0]!);
    assert.deepEqual((await stores.samlpSessions.listForSession(tenantId, sessionHash)).map((r) => r.client_id), [clients[1]]);
    await db.deleteFrom('sessions').where('tenant_id', '=', tenantId).where('id_hash', '=', sessionHash).execute();
    assert.deepEqual(await stores.samlpSessions.listForSession(tenantId, sessionHash), []);
    await assert.rejects(stores.samlpSessions.record(row(tenantId, secretHash(newSecret()), clients[1]!, 3)));
  });
});
