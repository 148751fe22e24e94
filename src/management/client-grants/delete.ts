import { managementRoute, NoContent, type ManagementRouteFactory } from '../route.js';
import type { ClientGrantService } from './service.js';
import { IdParams } from './schema.js';

/** DELETE /api/v2/client-grants/{id} → 204 */
export const deleteClientGrant: ManagementRouteFactory<ClientGrantService> = (_ctx, clientGrants) => managementRoute({
  method: 'DELETE',
  url: '/client-grants/:id',
  config: { scopes: ['delete:client_grants'] },
  schema: { params: IdParams, response: { 204: NoContent } },
  handler: async (request, reply) => {
    await clientGrants.delete(request.tenant, request.params.id);
    return reply.code(204).send();
  },
});
