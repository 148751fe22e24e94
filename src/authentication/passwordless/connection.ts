/** The passwordless (`email` or `sms`) connection a request names, enabled for the client. */
import type { ConnectionRow } from '../../domain/connections/model.js';
import { EMAIL_STRATEGY, PASSWORDLESS_STRATEGIES } from '../../domain/passwordless/options.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import type { ConnectionStore } from '../../domain/connections/store.js';
import { loginConnections } from '../../domain/issuance/token-policy.js';

/** What finding the passwordless connection touches. */
export interface PasswordlessConnectionContext {
  readonly stores: { readonly connections: ConnectionStore };
}

/** The connection named `name` when it is an email or sms connection enabled for the client; undefined otherwise. */
export async function passwordlessConnection(ctx: PasswordlessConnectionContext, tenant: Tenant, clientId: string, name: string | undefined): Promise<ConnectionRow | undefined> {
  if (name === undefined) return undefined;
  const enabled = await loginConnections(ctx.stores.connections, tenant.id, clientId);
  return enabled.find((c) => c.name === name && PASSWORDLESS_STRATEGIES.has(c.strategy));
}

/** The connection named `name` when it is an email connection enabled for the client; undefined otherwise. */
export async function emailConnection(ctx: PasswordlessConnectionContext, tenant: Tenant, clientId: string, name: string | undefined): Promise<ConnectionRow | undefined> {
  const connection = await passwordlessConnection(ctx, tenant, clientId, name);
  return connection?.strategy === EMAIL_STRATEGY ? connection : undefined;
}
