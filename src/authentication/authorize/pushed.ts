/**
 * Pushed authorization requests (RFC 9126) as /authorize reads them: with
 * `request_uri`, the request is the one the client pushed to /oauth/par,
 * used once, and nothing of the query but `client_id` counts (§4); a client
 * with `require_pushed_authorization_requests` may not send a plain request.
 * A request_uri that is unknown, spent, expired or another client's is the
 * error page: nothing about the request is trusted, so nothing is redirected.
 */
import type { Stores } from '../../domain/stores.js';
import type { IssuanceClient } from '../../domain/issuance/lookups.js';
import { complianceProfile } from '../../domain/clients/compliance.js';
import { secretHash } from '../../domain/secrets.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { isoAt } from '../../platform/clock.js';
import { oauthErrors } from '../../platform/http/errors.js';

export const REQUEST_URI_PREFIX = 'urn:ietf:params:oauth:request_uri:';

/** Whether the client must push its authorization requests (its own setting, or its compliance level). */
export const requiresPushedRequests = (client: IssuanceClient) =>
  client.row.config.require_pushed_authorization_requests === true || complianceProfile(client.row) !== undefined;

/** The pushed parameters a request_uri names (used once), for their client. */
/** What reading a pushed request touches: the clock and the pushed requests (spent once). */
export interface PushedRequestContext {
  readonly now: () => number;
  readonly stores: Pick<Stores, 'pushedRequests'>;
}

export async function pushedParameters(ctx: PushedRequestContext, tenant: Tenant, client: IssuanceClient, requestUri: string): Promise<Record<string, string>> {
  if (!requestUri.startsWith(REQUEST_URI_PREFIX)) throw oauthErrors.invalidRequest('Invalid request_uri.');
  const pushed = await ctx.stores.pushedRequests.consume(tenant.id, secretHash(requestUri.slice(REQUEST_URI_PREFIX.length)), client.row.client_id, isoAt(ctx.now()));
  if (!pushed) throw oauthErrors.invalidRequest('The request_uri is unknown, expired or already used.');
  return { ...pushed, client_id: client.row.client_id };
}
