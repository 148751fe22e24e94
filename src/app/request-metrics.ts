/**
 * Requests counted by route pattern and status (src/platform/metrics.ts),
 * without work per request beyond the counter: each route gets, as it is
 * registered, an onResponse hook holding its pattern (`/api/v2/clients/:id`,
 * never the raw URL), so nothing is looked up or built per request
 * (`request.routeOptions` builds an object on every read). Requests no route
 * matched are counted under `unmatched`. Call before any route is registered.
 * Nothing is hooked when the metrics are not served (src/platform/metrics.ts).
 */
import type { FastifyInstance, onResponseAsyncHookHandler, RouteOptions } from 'fastify';
import type { Metrics } from '../platform/metrics.js';

export function countRequests(app: FastifyInstance, metrics: Metrics): void {
  // Metrics nobody reads are not recorded: no hook at all, neither per route nor per request.
  if (!metrics.registry) return;
  app.addHook('onRoute', (route: RouteOptions) => {
    const pattern = route.url;
    const count: onResponseAsyncHookHandler = async (request, reply) => {
      metrics.request(request.method, pattern, reply.statusCode, reply.elapsedTime / 1000);
    };
    const existing = route.onResponse === undefined ? [] : Array.isArray(route.onResponse) ? route.onResponse : [route.onResponse];
    route.onResponse = [...existing, count] as RouteOptions['onResponse'];
  });
  app.addHook('onResponse', async (request, reply) => {
    if (request.is404) metrics.request(request.method, 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
  });
}
