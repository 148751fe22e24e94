/**
 * The Management API under /api/v2: every route needs a valid Bearer token
 * (checked before the body is parsed, as the service does) and one of the
 * scopes its `config.scopes` lists; end users' tokens reach only the
 * operations on their own user that `config.currentUser` opens.
 */
import type { FastifyPluginAsync } from 'fastify';
import { authenticateManagement, authorizeOperation } from './auth.js';
import { notAvailableRoute } from './not-available/route.js';
import { managementRoutes } from './routes.js';
import type { AppContext } from '../domain/context.js';

export function managementPlugin(ctx: AppContext): FastifyPluginAsync {
  return async (app) => {
    app.addHook('onRequest', async (request) => {
      const { scopes, currentUser } = request.routeOptions.config;
      // The catch-all (not-available/route.ts) authenticates the service's operations itself.
      if (scopes === undefined) return;
      request.principal = await authenticateManagement(ctx, request);
      authorizeOperation(request.principal, { scopes, ...(currentUser && { currentUser }) }, request.params);
    });
    for (const route of managementRoutes(ctx)) app.route(route);
    // Operations of the service that no route above implements (not-available/route.ts).
    app.route(notAvailableRoute(ctx));
  };
}
