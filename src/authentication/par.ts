/**
 * POST /oauth/par (RFC 9126; authentication-api-wire-notes §12): the stages
 * of the authorization-request table marked PAR (./authorize/stages.ts): the
 * client authenticates as at the token endpoint (any registered method; a
 * public client by client_id) and pushes the parameters of an /authorize
 * request, validated now as /authorize would and refused as JSON
 * (`redirect_uri` against the callbacks, the response type, mode, scope and
 * PKCE). A `request_uri` cannot itself be pushed (§2.1); a signed request
 * object (`request`, RFC 9101) is verified here and its members pushed. A
 * DPoP proof binds the request's code to its key (`dpop_jkt`, RFC 9449
 * §10.1). The answer is a single-use `request_uri` valid for the client's
 * `par_request_expiry` seconds (default 30, at most 600).
 */
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { Stores } from '../domain/stores.js';
import { newSecret, secretHash } from '../domain/secrets.js';
import { isoAt } from '../platform/clock.js';
import { REQUEST_URI_PREFIX } from './authorize/pushed.js';
import { responseSupport } from './authorize/request.js';
import { authorizationPipeline, PAR, type StageContext } from './authorize/stages.js';
import type { AuthenticationRegistries } from './registries.js';

export const DEFAULT_PAR_EXPIRY_SECONDS = 30;
export const MAX_PAR_EXPIRY_SECONDS = 600;

/** The client's `par_request_expiry`, or the default. */
function expirySeconds(config: Record<string, unknown>): number {
  const value = config.par_request_expiry;
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? Math.min(value, MAX_PAR_EXPIRY_SECONDS) : DEFAULT_PAR_EXPIRY_SECONDS;
}

/** What /oauth/par touches: the stages' context and the pushed requests it keeps. */
export interface ParContext extends StageContext {
  readonly stores: StageContext['stores'] & Pick<Stores, 'pushedRequests'>;
}

export function parEndpoint(ctx: ParContext, registries: AuthenticationRegistries): RouteOptions {
  const run = authorizationPipeline(PAR, { ctx, clientAuthMethods: registries.clientAuthMethods, responses: responseSupport(registries) });
  return {
    method: 'POST',
    url: '/oauth/par',
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      const { client, params } = await run(request, reply);
      const secret = newSecret();
      const expiresIn = expirySeconds(client!.row.config);
      const now = ctx.now();
      await ctx.stores.pushedRequests.insert({
        tenant_id: request.tenant.id,
        id_hash: secretHash(secret),
        client_id: client!.row.client_id,
        params,
        created_at: isoAt(now),
        expires_at: isoAt(now + expiresIn * 1000),
      });
      return reply.code(201).header('Cache-Control', 'no-store').send({ request_uri: `${REQUEST_URI_PREFIX}${secret}`, expires_in: expiresIn });
    },
  };
}
