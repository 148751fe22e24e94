/**
 * GET /authorize (RFC 6749 §4.1.1, §4.2.1; OIDC Core §3; authentication-api-
 * wire-notes §4): the stages of the authorization-request table marked A
 * (./stages.ts: read the query, find the client, take a pushed request's
 * parameters for a request_uri (./pushed.ts) or a signed request object's
 * (./request-object.ts), resolve the redirect target (failures: a page,
 * never a redirect), validate the rest (failures: an error response to the
 * redirect target, ./request.ts), check the audience), then the requested
 * connection (./requested-connection.ts), and hand the request to the
 * interaction steps (../interaction/policy.ts) with the browser's usable
 * login, if any, or the login of a cross-origin login ticket
 * (../cross-origin/redeem.ts).
 */
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { startInteraction } from '../interaction/policy.js';
import type { StepDeps } from '../interaction/step.js';
import { redeemLoginTicket } from '../cross-origin/redeem.js';
import type { IssuanceClient } from '../../domain/issuance/lookups.js';
import type { AuthenticationRegistries } from '../registries.js';
import { checkRequestedConnection } from './requested-connection.js';
import { responseSupport, type AuthorizeRequest } from './request.js';
import { A, authorizationPipeline } from './stages.js';

/** A validated authorization request: its parameters, the client, the request as the interaction keeps it. */
export interface ReadAuthorizeRequest {
  params: Record<string, string>;
  client: IssuanceClient;
  authorize: AuthorizeRequest;
}

/**
 * Reads and validates the authorization request of a query (the A stages);
 * `extraParameters` are those an endpoint of the family reads besides the
 * request's (/passwordless/verify_redirect's email and code).
 */
export function authorizeRequestReader(
  deps: StepDeps,
  registries: Pick<AuthenticationRegistries, 'clientAuthMethods' | 'responseTypes' | 'responseModes'>,
  extraParameters: readonly string[] = [],
): (request: FastifyRequest, reply: FastifyReply) => Promise<ReadAuthorizeRequest> {
  const run = authorizationPipeline(A, { ctx: deps.ctx, clientAuthMethods: registries.clientAuthMethods, responses: responseSupport(registries), extraParameters });
  return async (request, reply) => {
    const { params, client, authorize } = await run(request, reply);
    return { params, client: client!, authorize: authorize! };
  };
}

export function authorizeEndpoint(deps: StepDeps, registries: AuthenticationRegistries): RouteOptions {
  const read = authorizeRequestReader(deps, registries);
  return {
    method: 'GET',
    url: '/authorize',
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      const { tenant } = request;
      const { params, client, authorize } = await read(request, reply);
      await checkRequestedConnection(deps.ctx, tenant, client, authorize);
      // A cross-origin login (POST /co/authenticate) is finished with its ticket, not the browser's session.
      if (params.login_ticket !== undefined) return redeemLoginTicket(deps, request, reply, client, authorize, params);
      const authenticated = await deps.sessions.usable(tenant, client, authorize, request.headers.cookie);
      return startInteraction(deps, request, reply, client, authorize, authenticated);
    },
  };
}
