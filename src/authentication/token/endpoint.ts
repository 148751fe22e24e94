/**
 * POST /oauth/token as a pipeline of named steps, in the manner of
 * node-oidc-provider's actions: read the body, require `grant_type`, select
 * the grant handler, pick the parameters it declares (with client
 * authentication's), authenticate the client, check that the client may use
 * the grant, check a proof of possession (DPoP), run the grant, answer. Stack traces read like RFC 6749 §3.2.
 * The grants and client-authentication methods are the registry's
 * (../registries.ts).
 */
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { IssuanceLookups } from '../../domain/issuance/lookups.js';
import { oauthErrors } from '../../platform/http/errors.js';
import { authenticateClient, clientAuthenticationParameters, type ClientAuthenticationContext } from '../client-auth/authenticate.js';
import type { AuthenticatedClient } from '../client-auth/method.js';
import { pick, readBody, requireParams, type Params, type RawParams } from '../params.js';
import type { AuthenticationRegistries } from '../registries.js';
import type { GrantHandler, GrantHandlerContext, TokenResponse } from './grant.js';
import type { DpopContext } from '../sender-constraint/dpop.js';
import { proofOfPossession } from '../sender-constraint/token-proof.js';
import { logTokenExchange, type TenantLogLookupContext, type TokenExchange } from '../tenant-log.js';
import type { Metrics } from '../../platform/metrics.js';

function readGrantType(raw: RawParams): string {
  const { grant_type } = pick(raw, ['grant_type']);
  requireParams({ grant_type: grant_type ?? '' }, 'grant_type');
  return grant_type!;
}

function selectGrant(grants: ReadonlyMap<string, GrantHandler>, grantType: string): GrantHandler {
  const handler = grants.get(grantType);
  if (!handler) throw oauthErrors.unsupportedGrantType(grantType);
  return handler;
}

function pickGrantParameters(raw: RawParams, handler: GrantHandler, authentication: readonly string[]): Params {
  return pick(raw, ['grant_type', ...authentication, ...handler.parameters]);
}

function checkClientMayUseGrant(handler: GrantHandler, client: AuthenticatedClient, params: Params): void {
  if (handler.requiresConfidentialClient && !client.confidential) {
    throw oauthErrors.unauthorizedClient(`Grant type '${handler.grantType}' not allowed for public clients.`);
  }
  if (!client.client.grantTypes.has(handler.grantType) && handler.unlisted?.(params) !== true) {
    throw oauthErrors.unauthorizedClient(`Grant type '${handler.grantType}' not allowed for the client.`);
  }
}

function sendTokens(reply: FastifyReply, response: TokenResponse): FastifyReply {
  return reply
    .header('Cache-Control', 'no-store')
    .header('Pragma', 'no-cache')
    // The service answers `application/json` without a charset here; a Buffer keeps Fastify from adding one.
    .header('Content-Type', 'application/json')
    .send(Buffer.from(JSON.stringify(response)));
}

/** What the token endpoint touches: client authentication, DPoP proofs, what its grants may (../token/grant.ts), the metrics and the tenant log. */
export interface TokenEndpointContext extends ClientAuthenticationContext, DpopContext, GrantHandlerContext, TenantLogLookupContext {
  readonly lookups: IssuanceLookups;
  readonly metrics: Metrics;
  readonly stores: ClientAuthenticationContext['stores'] & DpopContext['stores'] & GrantHandlerContext['stores'] & TenantLogLookupContext['stores'];
}

export function tokenEndpoint(ctx: TokenEndpointContext, registries: AuthenticationRegistries): RouteOptions {
  const grants: ReadonlyMap<string, GrantHandler> = new Map(registries.grants.map((g) => [g.grantType, g]));
  const authentication = clientAuthenticationParameters(registries.clientAuthMethods);
  return {
    method: 'POST',
    url: '/oauth/token',
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      // What is known of the exchange so far, for the tenant log's success or failure event.
      const exchange: TokenExchange = { login: {} };
      try {
        const raw = readBody(request);
        const handler = selectGrant(grants, (exchange.grantType = readGrantType(raw)));
        const params = (exchange.params = pickGrantParameters(raw, handler, authentication));
        const client = (exchange.client = await authenticateClient(registries.clientAuthMethods, ctx, request.tenant, request, params));
        checkClientMayUseGrant(handler, client, params);
        const confirmation = await proofOfPossession(ctx, request.tenant, request, reply, client.client, `${request.tenant.issuer}oauth/token`, {
          enforceClientRequirement: true,
          authenticatedWith: client.method,
        });
        const response = await handler.handle({ ctx, tenant: request.tenant, request, params, client, login: exchange.login, ...(confirmation && { confirmation }) });
        ctx.metrics.tokenIssued(handler.grantType);
        logTokenExchange(ctx, request, exchange, { response });
        return sendTokens(reply, response);
      } catch (error) {
        logTokenExchange(ctx, request, exchange, { error });
        throw error;
      }
    },
  };
}
