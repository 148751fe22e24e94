import { managementRoute, NoContent, type ManagementRouteFactory } from '../../route.js';
import { ConnectionParams } from './schema.js';
import type { OrganizationConnectionService } from './service.js';

/** DELETE /api/v2/organizations/{id}/enabled_connections/{connectionId} → 204; the connection itself stays. */
export const removeOrganizationConnection: ManagementRouteFactory<OrganizationConnectionService> = (_ctx, connections) => managementRoute({
  method: 'DELETE',
  url: '/organizations/:id/enabled_connections/:connectionId',
  config: { scopes: ['delete:organization_connections'] },
  schema: { params: ConnectionParams, response: { 204: NoContent } },
  handler: async (request, reply) => {
    await connections.remove(request.tenant, request.params.id, request.params.connectionId);
    return reply.code(204).send();
  },
});
