import type { RouteOptions } from 'fastify';
import { DOCUMENT_CONTENT_TYPE, JWKS_PATH, documentHeaders, jwksDocument, notModified, type DiscoveryContext } from './documents.js';

/**
 * GET /.well-known/jwks.json: the tenant's public signing keys, each with
 * kty, use, n, e, kid, x5t, x5c and alg. The bytes, ETag and caching headers
 * come from ./documents.ts, which also answers this path on the real
 * listener before Fastify; this route is what app.inject() reaches.
 */
export function jwksEndpoint(ctx: DiscoveryContext): RouteOptions {
  return {
    method: 'GET',
    url: JWKS_PATH,
    handler: async (request, reply) => {
      const document = await jwksDocument(ctx, request.tenant);
      reply.headers(documentHeaders(document, request.headers.origin, request.tenant));
      if (notModified(request.headers['if-none-match'], document.etag)) return reply.code(304).send();
      return reply.type(DOCUMENT_CONTENT_TYPE).send(document.body);
    },
  };
}
