import { managementRoute, type ManagementRouteFactory } from '../../route.js';
import { ConnectionParams, OrganizationConnectionResponse } from './schema.js';
import type { OrganizationConnectionService } from './service.js';

/** GET /api/v2/organizations/{id}/enabled_connections/{connectionId} */
export const getOrganizationConnection: ManagementRouteFactory<OrganizationConnectionService> = (_ctx, connections) => managementRoute({
  method: 'GET',
  url: '/organizations/:id/enabled_connections/:connectionId',
  config: { scopes: ['read:organization_connections'] },
  schema: { params: ConnectionParams, response: { 200: OrganizationConnectionResponse } },
  handler: async (request) => connections.get(request.tenant, request.params.id, request.params.connectionId),
});
