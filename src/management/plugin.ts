/**
 * The Management API under /api/v2: every route needs a valid Bearer token
 * (checked before the body is parsed, as the service does) and one of the
 * scopes its `config.scopes` lists; end users' tokens reach only the
 * operations on their own user that `config.currentUser` opens.
 */
import multipart from '@fastify/multipart';
import type { FastifyPluginAsync } from 'fastify';
import { authenticateManagement, authorizeOperation } from './auth.js';
import { notAvailableRoutes } from './not-available/route.js';
import { managementRoutes } from './routes.js';
import { logManagementOperation } from './tenant-log.js';
import { managementNetworkAclHook } from './network-acl-hook.js';
import type { AppContext } from '../domain/context.js';
import { ManagementError } from '../platform/http/errors.js';
import { MULTIPART_MEDIA_TYPE, requestMediaType } from '../platform/http/media-type.js';

export function managementPlugin(ctx: AppContext): FastifyPluginAsync {
  return async (app) => {
    // multipart/form-data for the user import's file (limits set per request, src/management/jobs/users-imports.ts).
    await app.register(multipart, { limits: { files: 1, parts: 8, fieldSize: 1024 } });
    // The tenant's network ACLs of scope management (./network-acl-hook.ts), before the token is checked.
    app.addHook('onRequest', managementNetworkAclHook(ctx));
    app.addHook('onRequest', async (request) => {
      const { scopes, currentUser, allScopes } = request.routeOptions.config;
      // Unknown routes fall through to the 404 handler without authentication; the catch-all (not-available/route.ts) authenticates the service's operations itself.
      if (scopes === undefined) return;
      request.principal = await authenticateManagement(ctx, request);
      authorizeOperation(request.principal, { scopes, ...(currentUser && { currentUser }), ...(allScopes && { allScopes }) }, request.params);
    });
    // Only the operations that declare multipart/form-data (the user import) take it; every other one refuses it as before the parser existed.
    app.addHook('preParsing', async (request) => {
      if (requestMediaType(request) !== MULTIPART_MEDIA_TYPE) return;
      const consumes = (request.routeOptions.schema as { consumes?: readonly string[] } | undefined)?.consumes;
      if (!consumes?.includes('multipart/form-data')) throw new ManagementError(415, 'Unsupported Media Type');
    });
    // Operations that change something go to the tenant log (sapi / fapi) once answered.
    app.addHook('onResponse', async (request, reply) => logManagementOperation(ctx, request, reply));
    const routes = managementRoutes(ctx);
    for (const route of routes) app.route(route);
    for (const route of routes) {
      const { preClose } = route.config;
      if (preClose) app.addHook('preClose', async () => preClose());
    }
    // Operations of the service that no route above implements (not-available/route.ts).
    for (const route of notAvailableRoutes(ctx, routes)) app.route(route);
  };
}
