import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../route.js';
import type { ConnectionService } from './service.js';
import { ConnectionResponse, IdParams, UpdateConnectionBody } from './schema.js';

/** PATCH /api/v2/connections/{id} → 200 with the updated connection */
export const updateConnection: ManagementRouteFactory<ConnectionService> = (_ctx, connections) => managementRoute({
  method: 'PATCH',
  url: '/connections/:id',
  config: { scopes: ['update:connections'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], params: IdParams, body: UpdateConnectionBody, response: { 200: ConnectionResponse } },
  handler: async (request) => connections.update(request.tenant, request.params.id, request.body),
});
