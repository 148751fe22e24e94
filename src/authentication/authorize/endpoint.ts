/**
 * GET /authorize (RFC 6749 §4.1.1, §4.2.1; OIDC Core §3; authentication-api-
 * wire-notes §4) as a pipeline: read the query, find the client, take a
 * pushed request's parameters for a request_uri (./pushed.ts) or a signed
 * request object's (./request-object.ts), resolve the redirect target
 * (failures: a page, never a redirect), validate the rest
 * (failures: an error response to the redirect target, ./request.ts), check
 * the audience and the requested connection (./requested-connection.ts), then
 * hand the request to the interaction steps
 * (../interaction/policy.ts) with the browser's usable login, if any, or
 * the login of a cross-origin login ticket (../cross-origin/redeem.ts).
 */
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { AuthorizationErrorResponse, pageErrors } from '../errors.js';
import { startInteraction } from '../interaction/policy.js';
import type { InteractionDeps } from '../interaction/step.js';
import { readQuery } from '../params.js';
import { redeemLoginTicket } from '../cross-origin/redeem.js';
import type { AppContext } from '../../domain/context.js';
import type { IssuanceClient } from '../../domain/issuance/lookups.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { pushedParameters, requiresPushedRequests } from './pushed.js';
import { RequestObjectRefusal, withRequestObject } from './request-object.js';
import { checkRequestedConnection } from './requested-connection.js';
import { checkWebMessageOrigin, resolveRedirectTarget, validateAuthorizeRequest, type AuthorizeRequest } from './request.js';

/** Query parameters as single strings; a repeated or structured parameter is refused (RFC 6749 §3.1) with the error page. */
function authorizeParams(request: FastifyRequest): Record<string, string> {
  const raw = readQuery(request);
  const refused = [...raw.repeated, ...raw.malformed][0];
  if (refused !== undefined) throw pageErrors.authorize(`Parameter ${refused} must not be repeated.`);
  return { ...raw.values };
}

/**
 * The request's parameters: a pushed request's for a request_uri (./pushed.ts,
 * verified when pushed), else the query with a signed request object's
 * members over it (./request-object.ts).
 */
async function requestParameters(ctx: AppContext, tenant: Tenant, client: IssuanceClient, query: Record<string, string>): Promise<Record<string, string>> {
  if (query.request_uri !== undefined) {
    if (query.request !== undefined) throw pageErrors.authorize('request and request_uri cannot be sent together.');
    return pushedParameters(ctx, tenant, client, query.request_uri);
  }
  if (requiresPushedRequests(client)) throw pageErrors.authorize('This client must use pushed authorization requests (request_uri from /oauth/par).');
  try {
    return await withRequestObject(ctx, tenant, client, query);
  } catch (error) {
    if (error instanceof RequestObjectRefusal) throw pageErrors.authorize(`Invalid request object: ${error.description}`);
    throw error;
  }
}

/**
 * The validated authorization request of this query: the client, the
 * trusted redirect target, the rest of the parameters, the audience. Also
 * the first half of /passwordless/verify_redirect, whose query is an
 * authorization request too.
 */
export async function readAuthorizeRequest(ctx: AppContext, request: FastifyRequest): Promise<{ params: Record<string, string>; client: IssuanceClient; authorize: AuthorizeRequest }> {
  const { tenant } = request;
  let params = authorizeParams(request);
  if (!params.client_id) throw pageErrors.authorize('Missing required parameter: client_id');
  const client = await ctx.lookups.client(tenant.id, params.client_id);
  if (!client) throw pageErrors.authorize('Unknown client.');
  params = await requestParameters(ctx, tenant, client, params);
  const redirectTarget = resolveRedirectTarget(client, params.redirect_uri);
  checkWebMessageOrigin(client, params, redirectTarget);

  const authorize = validateAuthorizeRequest(client, params, redirectTarget);
  if (authorize.audience !== undefined && !(await ctx.lookups.resourceServer(tenant.id, authorize.audience))) {
    throw new AuthorizationErrorResponse('access_denied', `Service not enabled within domain: ${authorize.audience}`, authorize);
  }
  return { params, client, authorize };
}

export function authorizeEndpoint(deps: InteractionDeps): RouteOptions {
  return {
    method: 'GET',
    url: '/authorize',
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      const { tenant } = request;
      const { params, client, authorize } = await readAuthorizeRequest(deps.ctx, request);
      await checkRequestedConnection(deps.ctx, tenant, client, authorize);
      // A cross-origin login (POST /co/authenticate) is finished with its ticket, not the browser's session.
      if (params.login_ticket !== undefined) return redeemLoginTicket(deps, request, reply, client, authorize, params);
      const authenticated = await deps.sessions.usable(tenant, client, authorize, request.headers.cookie);
      return startInteraction(deps, request, reply, client, authorize, authenticated);
    },
  };
}
