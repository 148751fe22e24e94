/**
 * `/authorize?connection=NAME` must name a connection enabled for the client.
 * Otherwise the service answers at once, before any page, with
 * `invalid_request` "the connection was not found" sent to the application
 * (its trusted redirect_uri, in the request's response mode), whether the
 * connection does not exist or exists but is not enabled for the client: the
 * callbacks quoted in auth0/auth0.js#822 and auth0/lock#978, where the
 * maintainers name a connection not enabled for the client as the cause. The
 * wire notes (§4) list `invalid_request` among /authorize's errors without
 * this description; one answer for both cases is also what keeps the names of
 * other applications' connections from being probed.
 *
 * A request whose redirect_uri is not trusted never gets here: its error page
 * comes first (./request.ts `resolveRedirectTarget`).
 */
import type { ConnectionStore } from '../../domain/connections/store.js';
import type { IssuanceClient } from '../../domain/issuance/lookups.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { oauthErrors } from '../../platform/http/errors.js';
import type { AuthorizeRequest } from './request.js';
import { loginConnections } from '../../domain/issuance/token-policy.js';

export const CONNECTION_NOT_FOUND = 'the connection was not found';

/** Refuses a `connection` that is not enabled for the client (see the file comment); no `connection`: nothing to check. */
/** What checking a requested connection reads: the connections enabled for the client. */
export interface RequestedConnectionContext {
  readonly stores: { readonly connections: ConnectionStore };
}

export async function checkRequestedConnection(ctx: RequestedConnectionContext, tenant: Tenant, client: IssuanceClient, authorize: AuthorizeRequest): Promise<void> {
  const name = authorize.connection;
  if (name === undefined) return;
  const enabled = await loginConnections(ctx.stores.connections, tenant.id, client.row.client_id);
  if (!enabled.some((c) => c.name === name)) throw oauthErrors.invalidRequest(CONNECTION_NOT_FOUND);
}
