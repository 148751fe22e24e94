/**
 * POST /oauth/token as a pipeline of named steps, in the manner of
 * node-oidc-provider's actions: read the parameters, require `grant_type`,
 * pick the grant handler, authenticate the client, check that the client may
 * use the grant, run the grant. Stack traces read like RFC 6749 §3.2.
 */
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { oauthErrors } from '../../platform/http/errors.js';
import { authenticateClient, type AuthenticatedClient } from '../client-auth/methods.js';
import { readParams, requireParams, type Params } from '../params.js';
import type { GrantHandler } from './grant.js';
import { authorizationCode } from './grants/authorization-code.js';
import { clientCredentials } from './grants/client-credentials.js';
import { password, passwordRealm } from './grants/password.js';
import { refreshToken } from './grants/refresh-token.js';
import type { AppContext } from '../../domain/context.js';

/** Grant handlers by `grant_type`. */
const GRANTS: ReadonlyMap<string, GrantHandler> = new Map([authorizationCode, clientCredentials, password, passwordRealm, refreshToken].map((g) => [g.grantType, g]));

function selectGrant(params: Params): GrantHandler {
  const handler = GRANTS.get(params.grant_type!);
  if (!handler) throw oauthErrors.unsupportedGrantType(params.grant_type!);
  return handler;
}

function checkClientMayUseGrant(handler: GrantHandler, client: AuthenticatedClient): void {
  if (handler.requiresConfidentialClient && !client.confidential) {
    throw oauthErrors.unauthorizedClient(`Grant type '${handler.grantType}' not allowed for public clients.`);
  }
  if (!client.client.grantTypes.has(handler.grantType)) {
    throw oauthErrors.unauthorizedClient(`Grant type '${handler.grantType}' not allowed for the client.`);
  }
}

export function tokenEndpoint(ctx: AppContext): RouteOptions {
  return {
    method: 'POST',
    url: '/oauth/token',
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      const params = readParams(request);
      requireParams(params, 'grant_type');
      const handler = selectGrant(params);
      const client = await authenticateClient(ctx, request.tenant, request, params);
      checkClientMayUseGrant(handler, client);
      const response = await handler.handle({ ctx, tenant: request.tenant, request, params, client });
      return reply
        .header('Cache-Control', 'no-store')
        .header('Pragma', 'no-cache')
        // The service answers `application/json` without a charset here; a Buffer keeps Fastify from adding one.
        .header('Content-Type', 'application/json')
        .send(Buffer.from(JSON.stringify(response)));
    },
  };
}
