/**
 * Runs the credentials-exchange trigger for a client_credentials grant
 * (actions-wire-notes §2.4) before the access token is issued: the custom
 * claims the actions set; `api.access.deny(code, reason)` answers that code
 * (`invalid_scope` 403 and `invalid_request` 400, as the endpoint answers them otherwise; `server_error` 500), an action's error
 * `access_denied` with its message.
 */
import type { FastifyRequest } from 'fastify';
import type { ActionsRuntime } from '../../domain/actions-runtime/runtime.js';
import { withoutSecrets } from '../../domain/actions-runtime/triggers/event-parts.js';
import { credentialsExchange } from '../../domain/actions-runtime/triggers/credentials-exchange.js';
import type { IssuanceApi, IssuanceClient } from '../../domain/issuance/lookups.js';
import { oauthErrors } from '../../platform/http/errors.js';

export interface CredentialsExchangeContext {
  readonly actions: ActionsRuntime;
}

export async function runCredentialsExchange(
  ctx: CredentialsExchangeContext,
  exchange: { tenantId: string; client: IssuanceClient; api: IssuanceApi; scope: string; requestedScope: string | undefined; request: FastifyRequest; ip: string },
): Promise<Record<string, unknown> | undefined> {
  const actions = await ctx.actions.bound(exchange.tenantId, 'credentials-exchange');
  if (actions.length === 0) return undefined;
  const { request, client } = exchange;
  const body = typeof request.body === 'object' && request.body !== null ? (request.body as Record<string, unknown>) : {};
  const { outcome, failure } = await ctx.actions.run(
    exchange.tenantId,
    credentialsExchange,
    {
      tenant: { id: exchange.tenantId },
      client: { client_id: client.row.client_id, name: client.row.name, metadata: (client.row.config.client_metadata as Record<string, unknown> | undefined) ?? {} },
      resourceServer: { identifier: exchange.api.row.identifier, system: exchange.api.row.is_system === 1 },
      scope: exchange.scope.split(' ').filter(Boolean),
      requestedScopes: (exchange.requestedScope ?? '').split(' ').filter(Boolean),
      request: { ip: exchange.ip, method: request.method, hostname: request.hostname, ...(request.headers['user-agent'] !== undefined && { user_agent: request.headers['user-agent'] }), body: withoutSecrets(body) },
    },
    { actions },
  );
  if (failure) throw oauthErrors.accessDenied(failure.message);
  if (outcome.deny) {
    if (outcome.deny.code === 'invalid_scope') throw oauthErrors.invalidScope(outcome.deny.reason);
    if (outcome.deny.code === 'invalid_request') throw oauthErrors.invalidRequest(outcome.deny.reason);
    throw oauthErrors.serverError(outcome.deny.reason);
  }
  return outcome.accessTokenClaims;
}
