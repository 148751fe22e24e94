/** The passwordless (`email` or `sms`) connection a request names, enabled for the client. */
import type { ConnectionRow } from '../../domain/connections/model.js';
import type { AppContext } from '../../domain/context.js';
import { EMAIL_STRATEGY, PASSWORDLESS_STRATEGIES } from '../../domain/passwordless/options.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { loginConnections } from '../../domain/issuance/token-policy.js';

/** The connection named `name` when it is an email or sms connection enabled for the client; undefined otherwise. */
export async function passwordlessConnection(ctx: AppContext, tenant: Tenant, clientId: string, name: string | undefined): Promise<ConnectionRow | undefined> {
  if (name === undefined) return undefined;
  const enabled = await loginConnections(ctx.stores.connections, tenant.id, clientId);
  return enabled.find((c) => c.name === name && PASSWORDLESS_STRATEGIES.has(c.strategy));
}

/** The connection named `name` when it is an email connection enabled for the client; undefined otherwise. */
export async function emailConnection(ctx: AppContext, tenant: Tenant, clientId: string, name: string | undefined): Promise<ConnectionRow | undefined> {
  const connection = await passwordlessConnection(ctx, tenant, clientId, name);
  return connection?.strategy === EMAIL_STRATEGY ? connection : undefined;
}
