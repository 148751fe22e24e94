import type { RouteOptions } from 'fastify';
import type { AppContext } from '../../domain/context.js';

/**
 * GET /.well-known/jwks.json: the tenant's public signing keys, each with
 * kty, use, n, e, kid, x5t, x5c and alg. Served from the keyring's
 * pre-serialised body; caches may keep it for a few minutes.
 */
export function jwksEndpoint(ctx: AppContext): RouteOptions {
  return {
    method: 'GET',
    url: '/.well-known/jwks.json',
    handler: async (request, reply) => {
      const keys = await ctx.keyring.keys(request.tenant.id);
      return reply.header('Cache-Control', 'public, max-age=300').type('application/json; charset=utf-8').send(keys.jwksJson);
    },
  };
}
