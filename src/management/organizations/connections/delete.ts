import { managementRoute, NoContent, type ManagementRouteFactory } from '../../route.js';
import { AllConnectionParams } from './schema.js';
import type { OrganizationAllConnectionService } from './service.js';

/** DELETE /api/v2/organizations/{id}/connections/{connection_id} → 204; the connection itself stays. */
export const removeOrganizationAllConnection: ManagementRouteFactory<OrganizationAllConnectionService> = (_ctx, connections) => managementRoute({
  method: 'DELETE',
  url: '/organizations/:id/connections/:connection_id',
  config: { scopes: ['delete:organization_connections'] },
  schema: { params: AllConnectionParams, response: { 204: NoContent } },
  handler: async (request, reply) => {
    await connections.remove(request.tenant, request.params.id, request.params.connection_id);
    return reply.code(204).send();
  },
});
