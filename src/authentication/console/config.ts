/**
 * GET /admin/config.json: what the console's script needs to sign its
 * operator in through this tenant (auth0-spa-js's `domain`, `clientId`,
 * `authorizationParams`): the request's host, the tenant's built-in console
 * client, the Management API audience and every operator scope, and the
 * console's own address as the callback. Never cached: a host or a tenant's
 * scopes may change.
 */
import type { RouteOptions } from 'fastify';
import { CONSOLE_PATH, OPERATOR_SCOPES, consoleClientId, consoleUrl } from '../../domain/console/client.js';
import { managementAudience } from '../../domain/tenants/tenant.js';
import { CONSOLE_CSP } from './files.js';
import type { ConsoleConfig } from './config-shape.js';


export function consoleConfigRoute(): RouteOptions {
  return {
    method: 'GET',
    url: `${CONSOLE_PATH}config.json`,
    handler: async (request, reply) => {
      // The tenant resolved from this host (app/http.ts), so the host is one of the client's callbacks' hosts.
      const host = (request.headers.host ?? request.tenant.domain).toLowerCase();
      const body: ConsoleConfig = {
        domain: host,
        client_id: consoleClientId(request.tenant.id),
        audience: managementAudience(request.tenant),
        scope: ['openid', 'profile', 'email', ...OPERATOR_SCOPES].join(' '),
        redirect_uri: consoleUrl(host),
      };
      return reply.header('Cache-Control', 'no-store').header('Content-Security-Policy', CONSOLE_CSP).header('X-Content-Type-Options', 'nosniff').send(body);
    },
  };
}
