import { managementRoute, NoContent, type ManagementRouteFactory } from '../route.js';
import type { OrganizationService } from './service.js';
import { OrganizationIdParams } from './schema.js';

/** DELETE /api/v2/organizations/{id} → 204; its client grant links go with it. */
export const deleteOrganization: ManagementRouteFactory<OrganizationService> = (_ctx, organizations) => managementRoute({
  method: 'DELETE',
  url: '/organizations/:id',
  config: { scopes: ['delete:organizations'] },
  schema: { params: OrganizationIdParams, response: { 204: NoContent } },
  handler: async (request, reply) => {
    await organizations.delete(request.tenant, request.params.id);
    return reply.code(204).send();
  },
});
