/**
 * Offset pages read from anchors return exactly what a plain OFFSET returns,
 * on SQLite and PostgreSQL, before and after clients come and go.
 */
import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { randomString } from '../../src/platform/crypto/ids.js';
import { forEachStoreFactory } from '../helpers/databases.js';
import { tenantRow } from '../helpers/rows.js';
import { type ClientFilter } from '../../src/domain/clients/store.js';
import { type ClientRow } from '../../src/domain/rows.js';
import type { Stores } from '../../src/domain/stores.js';

const TENANT = 'ten_anchors';
const TYPES = ['spa', 'native', 'regular_web', null] as const;

function row(i: number): ClientRow {
  const now = new Date().toISOString();
  return {
    tenant_id: TENANT,
    client_id: randomString(32),
    name: `c${i}`,
    description: '',
    app_type: TYPES[i % TYPES.length] ?? null,
    is_first_party: i % 3 === 0 ? 1 : 0,
    global: 0,
    token_endpoint_auth_method: 'none',
    client_authentication_methods: null,
    grant_types: [],
    client_secret_enc: null,
    created_at: now,
    updated_at: now,
    external_client_id: null,
    config: {},
  };
}

await forEachStoreFactory('offset anchors', (h) => {
  let store: Stores['clients'];
  let anchors: Stores['clientAnchors'];

  before(async () => {
    ({ clients: store, clientAnchors: anchors } = h.stores());
    const rows = Array.from({ length: 2600 }, (_, i) => row(i));
    await h.unitOfWork().transaction(async (stores) => {
      const tenant = tenantRow({ id: TENANT, name: 'anchors', domain: 'anchors.test' });
      await stores.tenants.create({ tenant, signingKeys: [], clients: [], resourceServers: [], clientGrants: [] });
      for (const client of rows) await stores.clients.insert(client);
    });
  });

  async function compare(filter: ClientFilter, offset: number, limit = 50): Promise<void> {
    const plain = await store.list(TENANT, filter, { kind: 'offset', offset, limit }, false);
    const start = await anchors.start(TENANT, filter, offset);
    const anchored = await store.list(TENANT, filter, { kind: 'offset', limit, ...start }, false);
    assert.deepEqual(
      anchored.map((r) => r.client_id),
      plain.map((r) => r.client_id),
      `filter ${JSON.stringify(filter)} offset ${offset}`,
    );
  }

  const OFFSETS = [0, 50, 999, 1000, 1001, 1975, 2000, 2580, 2600, 5000];

  it('match plain OFFSET pages, with and without filters', async () => {
    for (const filter of [{}, { appTypes: ['spa'] }, { appTypes: ['spa', 'native'] }, { isFirstParty: true }] as ClientFilter[]) {
      for (const offset of OFFSETS) await compare(filter, offset);
    }
    const deep = await anchors.start(TENANT, {}, 2050);
    assert.equal(deep.offset, 50, 'a page 2,050 deep is read 50 rows past the anchor at 2,000');
    assert.ok(deep.from);
  });

  it('match again after clients are deleted and added, once invalidated', async () => {
    const some = await store.list(TENANT, {}, { kind: 'offset', offset: 100, limit: 30 }, false);
    for (const c of some) await store.delete(TENANT, c.client_id);
    for (let i = 0; i < 40; i++) await store.insert(row(10_000 + i));
    anchors.invalidateTenant(TENANT);
    for (const offset of OFFSETS) await compare({}, offset);
  });
});
