import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../route.js';
import type { ResourceServerService } from './service.js';
import { IdParams, ResourceServerResponse, UpdateResourceServerBody } from './schema.js';

/** PATCH /api/v2/resource-servers/{id} → 200 with the updated resource server */
export const updateResourceServer: ManagementRouteFactory<ResourceServerService> = (_ctx, resourceServers) => managementRoute({
  method: 'PATCH',
  url: '/resource-servers/:id',
  config: { scopes: ['update:resource_servers'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], params: IdParams, body: UpdateResourceServerBody, response: { 200: ResourceServerResponse } },
  handler: async (request) => {
    const { id } = request.params;
    return resourceServers.update(request.tenant, id, request.body);
  },
});
