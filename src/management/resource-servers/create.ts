import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../route.js';
import type { ResourceServerService } from './service.js';
import { CreateResourceServerBody, ResourceServerResponse } from './schema.js';

/** POST /api/v2/resource-servers → 201 */
export const createResourceServer: ManagementRouteFactory<ResourceServerService> = (_ctx, resourceServers) => managementRoute({
  method: 'POST',
  url: '/resource-servers',
  config: { scopes: ['create:resource_servers'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], body: CreateResourceServerBody, response: { 201: ResourceServerResponse } },
  handler: async (request, reply) => {
    const created = await resourceServers.create(request.tenant, request.body);
    return reply.code(201).send(created);
  },
});
