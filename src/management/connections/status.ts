/**
 * GET /api/v2/connections/{id}/status. The service documents it for AD/LDAP
 * connectors only ("200 OK … when the connection is online, otherwise a 404
 * … along with an error message"; federation wire notes §1.7); Gatehouse
 * answers it for every connection the same way: 200 with no body when the
 * connection's upstream answers now (an OpenID provider's JWKS, fetched
 * through the outbound guard) or it has none (database, passwordless), 404
 * with the reason otherwise.
 */
import { managementRoute, NoContent, type ManagementRouteFactory } from '../route.js';
import type { ConnectionService } from './service.js';
import { IdParams } from './schema.js';

export const connectionStatus: ManagementRouteFactory<ConnectionService> = (_ctx, connections) => managementRoute({
  method: 'GET',
  url: '/connections/:id/status',
  config: { scopes: ['read:connections'] },
  schema: { params: IdParams, response: { 200: NoContent } },
  handler: async (request, reply) => {
    await connections.status(request.tenant, request.params.id);
    return reply.code(200).send();
  },
});
