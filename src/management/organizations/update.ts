import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../route.js';
import type { OrganizationService } from './service.js';
import { IdParams, OrganizationResponse, UpdateOrganizationBody } from './schema.js';

/** PATCH /api/v2/organizations/{id} → 200 with the updated organization */
export const updateOrganization: ManagementRouteFactory<OrganizationService> = (_ctx, organizations) => managementRoute({
  method: 'PATCH',
  url: '/organizations/:id',
  config: { scopes: ['update:organizations'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], params: IdParams, body: UpdateOrganizationBody, response: { 200: OrganizationResponse } },
  handler: async (request) =>
    organizations.update(request.tenant, request.params.id, request.body),
});
