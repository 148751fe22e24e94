import { managementRoute, NoContent, type ManagementRouteFactory } from '../route.js';
import { ClientIdParams } from './schema.js';
import type { ClientService } from './service.js';

/** DELETE /api/v2/clients/{id} → 204; its client grants go with it. */
export const deleteClient: ManagementRouteFactory<ClientService> = (_ctx, clients) => managementRoute({
  method: 'DELETE',
  url: '/clients/:id',
  config: { scopes: ['delete:clients'] },
  schema: { params: ClientIdParams, response: { 204: NoContent } },
  handler: async (request, reply) => {
    await clients.delete(request.tenant, request.params.id);
    return reply.code(204).send();
  },
});
