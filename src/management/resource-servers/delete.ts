import { managementRoute, NoContent, type ManagementRouteFactory } from '../route.js';
import type { ResourceServerService } from './service.js';
import { IdParams } from './schema.js';

/** DELETE /api/v2/resource-servers/{id} → 204; its client grants go with it. */
export const deleteResourceServer: ManagementRouteFactory<ResourceServerService> = (_ctx, resourceServers) => managementRoute({
  method: 'DELETE',
  url: '/resource-servers/:id',
  config: { scopes: ['delete:resource_servers'] },
  schema: { params: IdParams, response: { 204: NoContent } },
  handler: async (request, reply) => {
    const { id } = request.params;
    await resourceServers.delete(request.tenant, id);
    return reply.code(204).send();
  },
});
