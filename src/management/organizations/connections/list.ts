import { offsetListResponse } from '../../lists.js';
import { managementRoute, type ManagementRouteFactory } from '../../route.js';
import { OrganizationIdParams } from '../schema.js';
import { ListAllConnectionsQuery, OrganizationAllConnectionResponse } from './schema.js';
import type { OrganizationAllConnectionService } from './service.js';

/** GET /api/v2/organizations/{id}/connections → by connection id, offset paging. */
export const listOrganizationAllConnections: ManagementRouteFactory<OrganizationAllConnectionService> = (_ctx, connections) => managementRoute({
  method: 'GET',
  url: '/organizations/:id/connections',
  config: { scopes: ['read:organization_connections'] },
  schema: { params: OrganizationIdParams, querystring: ListAllConnectionsQuery, response: { 200: offsetListResponse('connections', OrganizationAllConnectionResponse) } },
  handler: async (request) => connections.list(request.tenant, request.params.id, request.query),
});
