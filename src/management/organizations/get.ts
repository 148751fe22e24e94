import { managementRoute, type ManagementRouteFactory } from '../route.js';
import type { OrganizationService } from './service.js';
import { IdParams, OrganizationResponse } from './schema.js';

/** GET /api/v2/organizations/{id} */
export const getOrganization: ManagementRouteFactory<OrganizationService> = (_ctx, organizations) => managementRoute({
  method: 'GET',
  url: '/organizations/:id',
  config: { scopes: ['read:organizations', 'read:organizations_summary'] },
  schema: { params: IdParams, response: { 200: OrganizationResponse } },
  handler: async (request) => organizations.get(request.tenant, request.params.id),
});
