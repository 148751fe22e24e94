/**
 * The connection store with its options' secrets sealed at rest
 * (src/domain/connections/sealed-options.ts): every write seals them, every
 * read opens them, in and out of a unit of work, so nothing above the store
 * ever sees the sealed form and nothing below it the plaintext.
 */
import type { ConnectionRow } from '../domain/connections/model.js';
import { openOptionSecrets, sealOptionSecrets } from '../domain/connections/sealed-options.js';
import type { ConnectionStore } from '../domain/connections/store.js';
import type { Stores, UnitOfWork } from '../domain/stores.js';
import type { SecretBox } from '../platform/crypto/secret-box.js';

function sealingConnectionStore(store: ConnectionStore, box: SecretBox): ConnectionStore {
  const opened = (row: ConnectionRow): ConnectionRow => ({ ...row, options: openOptionSecrets(box, row.tenant_id, row.id, row.options) });
  const maybe = (row: ConnectionRow | undefined) => row && opened(row);
  return {
    get: async (tenantId, id) => maybe(await store.get(tenantId, id)),
    getByName: async (tenantId, name) => maybe(await store.getByName(tenantId, name)),
    list: async (tenantId, filter, page) => {
      const result = await store.list(tenantId, filter, page);
      return { ...result, rows: result.rows.map(opened) };
    },
    enabledForClient: async (tenantId, clientId) => (await store.enabledForClient(tenantId, clientId)).map(opened),
    insert: (row, enabledClients) => store.insert({ ...row, options: sealOptionSecrets(box, row.tenant_id, row.id, row.options) }, enabledClients),
    update: (tenantId, id, changes, enabledClients) =>
      store.update(tenantId, id, changes.options === undefined ? changes : { ...changes, options: sealOptionSecrets(box, tenantId, id, changes.options) }, enabledClients),
    delete: (tenantId, id) => store.delete(tenantId, id),
    enabledClients: (tenantId, connectionId, page) => store.enabledClients(tenantId, connectionId, page),
    setClientStatus: (tenantId, connectionId, changes) => store.setClientStatus(tenantId, connectionId, changes),
    existingClients: (tenantId, clientIds) => store.existingClients(tenantId, clientIds),
  };
}

/** `stores` and `unitOfWork` whose connection stores seal and open the options' secrets. */
export function sealingConnections(stores: Stores, unitOfWork: UnitOfWork, box: SecretBox): { stores: Stores; unitOfWork: UnitOfWork } {
  const wrap = (inner: Stores): Stores => ({ ...inner, connections: sealingConnectionStore(inner.connections, box) });
  const wrapUnit = (unit: UnitOfWork): UnitOfWork => ({
    transaction: (work) => unit.transaction((inner, joined) => work(wrap(inner), wrapUnit(joined))),
  });
  return { stores: wrap(stores), unitOfWork: wrapUnit(unitOfWork) };
}
