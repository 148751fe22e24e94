import type { Static } from '@sinclair/typebox';
import type { ManagementRouteFactory } from '../../route.js';
import { GrantParams } from './schema.js';
import type { OrganizationClientGrantService } from './service.js';

/** DELETE /api/v2/organizations/{id}/client-grants/{grant_id} → 204; the grant itself stays. */
export const deleteOrganizationClientGrant: ManagementRouteFactory<OrganizationClientGrantService> = (_ctx, clientGrants) => ({
  method: 'DELETE',
  url: '/organizations/:id/client-grants/:grant_id',
  config: { scopes: ['delete:organization_client_grants'] },
  schema: { params: GrantParams },
  handler: async (request, reply) => {
    const { id, grant_id } = request.params as Static<typeof GrantParams>;
    await clientGrants.remove(request.tenant, id, grant_id);
    return reply.code(204).send();
  },
});
