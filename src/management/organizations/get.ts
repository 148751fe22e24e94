import type { Static } from '@sinclair/typebox';
import type { ManagementRouteFactory } from '../route.js';
import type { OrganizationService } from './service.js';
import { IdParams, OrganizationResponse } from './schema.js';

/** GET /api/v2/organizations/{id} */
export const getOrganization: ManagementRouteFactory<OrganizationService> = (_ctx, organizations) => ({
  method: 'GET',
  url: '/organizations/:id',
  config: { scopes: ['read:organizations', 'read:organizations_summary'] },
  schema: { params: IdParams, response: { 200: OrganizationResponse } },
  handler: async (request) => organizations.get(request.tenant, (request.params as Static<typeof IdParams>).id),
});
