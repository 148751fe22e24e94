/** The passwordless (`email`) connection a request names, enabled for the client. */
import type { ConnectionRow } from '../../domain/connections/model.js';
import type { AppContext } from '../../domain/context.js';
import { EMAIL_STRATEGY } from '../../domain/passwordless/options.js';
import type { Tenant } from '../../domain/tenants/tenant.js';

/** The connection named `name` when it is an email connection enabled for the client; undefined otherwise. */
export async function emailConnection(ctx: AppContext, tenant: Tenant, clientId: string, name: string | undefined): Promise<ConnectionRow | undefined> {
  if (name === undefined) return undefined;
  const enabled = await ctx.stores.connections.enabledForClient(tenant.id, clientId);
  return enabled.find((c) => c.name === name && c.strategy === EMAIL_STRATEGY);
}
