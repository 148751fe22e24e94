import { managementRoute, type ManagementRouteFactory } from '../../route.js';
import { AllConnectionParams, OrganizationAllConnectionResponse } from './schema.js';
import type { OrganizationAllConnectionService } from './service.js';

/** GET /api/v2/organizations/{id}/connections/{connection_id} */
export const getOrganizationAllConnection: ManagementRouteFactory<OrganizationAllConnectionService> = (_ctx, connections) => managementRoute({
  method: 'GET',
  url: '/organizations/:id/connections/:connection_id',
  config: { scopes: ['read:organization_connections'] },
  schema: { params: AllConnectionParams, response: { 200: OrganizationAllConnectionResponse } },
  handler: async (request) => connections.get(request.tenant, request.params.id, request.params.connection_id),
});
