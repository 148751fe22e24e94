import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../../route.js';
import { ConnectionParams, OrganizationConnectionResponse, UpdateConnectionBody } from './schema.js';
import type { OrganizationConnectionService } from './service.js';

/** PATCH /api/v2/organizations/{id}/enabled_connections/{connectionId} → 200 with the updated settings. */
export const updateOrganizationConnection: ManagementRouteFactory<OrganizationConnectionService> = (_ctx, connections) => managementRoute({
  method: 'PATCH',
  url: '/organizations/:id/enabled_connections/:connectionId',
  config: { scopes: ['update:organization_connections'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], params: ConnectionParams, body: UpdateConnectionBody, response: { 200: OrganizationConnectionResponse } },
  handler: async (request) => connections.update(request.tenant, request.params.id, request.params.connectionId, request.body),
});
