/**
 * The service's tenant flag `enable_client_connections` ("whether all current
 * connections should be enabled when a new client is created", default true in
 * the service): tenants created with the default connection carry it
 * (src/domain/tenants/service.ts), and a client created through the
 * Management API is then enabled on every connection the tenant has, so a new
 * application can log users in through `Username-Password-Authentication`
 * without a further call.
 */
import type { ConnectionStore } from './store.js';
import type { TenantSettings } from '../tenants/settings.js';

const PAGE = 100;

export function enablesNewClients(settings: TenantSettings): boolean {
  return settings.enable_client_connections === true;
}

/** Enables the client on each of the tenant's connections (call it in the unit of work that creates the client). */
export async function enableOnEveryConnection(connections: ConnectionStore, tenantId: string, clientId: string): Promise<void> {
  let after: string | undefined;
  for (;;) {
    const { rows } = await connections.list(tenantId, {}, { kind: 'keyset', limit: PAGE, ...(after !== undefined && { after }) });
    for (const row of rows) await connections.setClientStatus(tenantId, row.id, [{ client_id: clientId, status: true }]);
    if (rows.length < PAGE) return;
    after = rows[rows.length - 1]!.id;
  }
}
