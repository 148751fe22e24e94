import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../../route.js';
import { AllConnectionParams, OrganizationAllConnectionResponse, UpdateAllConnectionBody } from './schema.js';
import type { OrganizationAllConnectionService } from './service.js';

/** PATCH /api/v2/organizations/{id}/connections/{connection_id} → 200 with the updated settings. */
export const updateOrganizationAllConnection: ManagementRouteFactory<OrganizationAllConnectionService> = (_ctx, connections) => managementRoute({
  method: 'PATCH',
  url: '/organizations/:id/connections/:connection_id',
  config: { scopes: ['update:organization_connections'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], params: AllConnectionParams, body: UpdateAllConnectionBody, response: { 200: OrganizationAllConnectionResponse } },
  handler: async (request) => connections.update(request.tenant, request.params.id, request.params.connection_id, request.body),
});
