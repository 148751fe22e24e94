import { managementRoute, NoContent, type ManagementRouteFactory } from '../../route.js';
import { GrantParams } from './schema.js';
import type { OrganizationClientGrantService } from './service.js';

/** DELETE /api/v2/organizations/{id}/client-grants/{grant_id} → 204; the grant itself stays. */
export const deleteOrganizationClientGrant: ManagementRouteFactory<OrganizationClientGrantService> = (_ctx, clientGrants) => managementRoute({
  method: 'DELETE',
  url: '/organizations/:id/client-grants/:grant_id',
  config: { scopes: ['delete:organization_client_grants'] },
  schema: { params: GrantParams, response: { 204: NoContent } },
  handler: async (request, reply) => {
    const { id, grant_id } = request.params;
    await clientGrants.remove(request.tenant, id, grant_id);
    return reply.code(204).send();
  },
});
