import { managementRoute, NoContent, type ManagementRouteFactory } from '../route.js';
import type { ConnectionService } from './service.js';
import { IdParams } from './schema.js';

/** DELETE /api/v2/connections/{id} → 204; the connection's users go with it. */
export const deleteConnection: ManagementRouteFactory<ConnectionService> = (_ctx, connections) => managementRoute({
  method: 'DELETE',
  url: '/connections/:id',
  config: { scopes: ['delete:connections'] },
  schema: { params: IdParams, response: { 204: NoContent } },
  handler: async (request, reply) => {
    await connections.delete(request.tenant, request.params.id);
    return reply.code(204).send();
  },
});
