import { managementRoute, type ManagementRouteFactory } from '../route.js';
import type { ResourceServerService } from './service.js';
import { IdParams, ResourceServerResponse } from './schema.js';

/** GET /api/v2/resource-servers/{id}; `id` may also be the identifier. */
export const getResourceServer: ManagementRouteFactory<ResourceServerService> = (_ctx, resourceServers) => managementRoute({
  method: 'GET',
  url: '/resource-servers/:id',
  config: { scopes: ['read:resource_servers'] },
  schema: { params: IdParams, response: { 200: ResourceServerResponse } },
  handler: async (request) => {
    const { id } = request.params;
    return resourceServers.toApi(request.tenant, await resourceServers.find(request.tenant, id));
  },
});
