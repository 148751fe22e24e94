/**
 * What the composition root adds for the admin console's built-in client
 * (src/domain/console/client.ts), which is computed rather than stored:
 *
 * - `consoleHosts`: every host that resolves to a tenant (its domain, the
 *   loopback aliases of the default tenant, its ready custom domains), the
 *   client's callbacks, read by the issuance lookups;
 * - `withConsoleConnections`: the connection store's `enabledForClient`
 *   answers the console client with every database connection of the tenant
 *   (operators are users of those), on the context's stores and on those of
 *   every unit of work; the Management API's reads (a connection's
 *   enabled_clients) are untouched, so the client stays out of them.
 */
import { consoleClientId } from '../domain/console/client.js';
import type { Stores, UnitOfWork } from '../domain/stores.js';

const DATABASE_STRATEGY = 'auth0';
/** More database connections than any tenant has; a page of them is read in one query. */
const MAX_DATABASE_CONNECTIONS = 1000;

export function consoleHosts(stores: Pick<Stores, 'tenants' | 'customDomains'>, aliases: ReadonlyMap<string, string>) {
  return async (tenantId: string): Promise<readonly string[] | undefined> => {
    const tenant = await stores.tenants.getById(tenantId);
    if (!tenant) return undefined;
    const custom = (await stores.customDomains.list(tenantId)).filter((d) => d.status === 'ready').map((d) => d.domain);
    const aliased = [...aliases].filter(([, domain]) => domain === tenant.domain).map(([alias]) => alias);
    return [tenant.domain, ...aliased, ...custom];
  };
}

function withConsoleStores(stores: Stores): Stores {
  const connections = stores.connections;
  const enabledForClient = async (tenantId: string, clientId: string) => {
    if (clientId !== consoleClientId(tenantId)) return connections.enabledForClient(tenantId, clientId);
    const page = await connections.list(tenantId, { strategies: [DATABASE_STRATEGY] }, { kind: 'offset', offset: 0, limit: MAX_DATABASE_CONNECTIONS, withTotal: false });
    return [...page.rows].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  };
  // A proxy rather than a copy: the store's other methods run on the store itself (class fields stay reachable).
  const wrapped = new Proxy(connections, {
    get(target, property) {
      if (property === 'enabledForClient') return enabledForClient;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { ...stores, connections: wrapped };
}

/** The stores and unit of work whose connection store knows the console client. */
export function withConsoleConnections(stores: Stores, unitOfWork: UnitOfWork): { stores: Stores; unitOfWork: UnitOfWork } {
  const wrapUnit = (unit: UnitOfWork): UnitOfWork => ({
    transaction: (work) => unit.transaction((inner, joined) => work(withConsoleStores(inner), wrapUnit(joined))),
  });
  return { stores: withConsoleStores(stores), unitOfWork: wrapUnit(unitOfWork) };
}
