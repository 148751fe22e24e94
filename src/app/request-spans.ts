/**
 * What each request's span says about it, when tracing is on
 * (src/platform/tracing/tracing.ts): the route pattern (`/api/v2/users/:id`,
 * never the raw URL), the tenant, and at the token endpoint the grant type.
 * The method, status and address are the HTTP instrumentation's own.
 * Written as the answer is sent (onSend), so refused requests (no tenant, rate
 * limited, invalid) carry what is known of them too. No hook at all when
 * tracing is off.
 */
import type { FastifyInstance } from 'fastify';
import type { Tracing } from '../platform/tracing/tracing.js';

/** The token endpoint, whose requests name their grant type. */
const TOKEN_ROUTE = '/oauth/token';

export function annotateRequestSpans(app: FastifyInstance, tracing: Tracing | undefined, grantTypes: readonly string[]): void {
  if (!tracing) return;
  // Only a grant type Gatehouse serves is recorded, never another value the client sent in its place.
  const known = new Set(grantTypes);
  app.addHook('onSend', async (request, _reply, payload) => {
    const route = request.routeOptions.url;
    const attributes: Record<string, string> = {};
    if (route !== undefined && !request.is404) attributes['http.route'] = route;
    if (request.tenant) {
      attributes['gatehouse.tenant.id'] = request.tenant.id;
      attributes['gatehouse.tenant.domain'] = request.tenant.domain;
    }
    if (route === TOKEN_ROUTE) {
      const grantType = (request.body as Record<string, unknown> | undefined)?.grant_type;
      if (typeof grantType === 'string' && known.has(grantType)) attributes['gatehouse.oauth.grant_type'] = grantType;
    }
    tracing.annotate(attributes, attributes['http.route'] === undefined ? undefined : `${request.method} ${attributes['http.route']}`);
    return payload;
  });
}
