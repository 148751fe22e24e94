/**
 * What the composition root adds for the admin console's built-in client
 * (src/domain/console/client.ts), which is computed rather than stored:
 * `consoleHosts`, every host that resolves to a tenant (its domain, the
 * loopback aliases of the default tenant, its ready custom domains), the
 * client's callbacks, read by the issuance lookups. (Its database connection
 * is the token policy's, src/domain/issuance/token-policy.ts `loginConnections`.)
 */
import type { Stores } from '../domain/stores.js';

export function consoleHosts(stores: Pick<Stores, 'tenants' | 'customDomains'>, aliases: ReadonlyMap<string, string>) {
  return async (tenantId: string): Promise<readonly string[] | undefined> => {
    const tenant = await stores.tenants.getById(tenantId);
    if (!tenant) return undefined;
    const custom = (await stores.customDomains.list(tenantId)).filter((d) => d.status === 'ready').map((d) => d.domain);
    const aliased = [...aliases].filter(([, domain]) => domain === tenant.domain).map(([alias]) => alias);
    return [tenant.domain, ...aliased, ...custom];
  };
}
