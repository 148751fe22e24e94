import type { ManagementRouteFactory } from '../route.js';
import type { ConnectionService } from './service.js';
import { IdParams } from './schema.js';

/** DELETE /api/v2/connections/{id} → 204; the connection's users go with it. */
export const deleteConnection: ManagementRouteFactory<ConnectionService> = (_ctx, connections) => ({
  method: 'DELETE',
  url: '/connections/:id',
  config: { scopes: ['delete:connections'] },
  schema: { params: IdParams },
  handler: async (request, reply) => {
    await connections.delete(request.tenant, (request.params as IdParams).id);
    return reply.code(204).send();
  },
});
