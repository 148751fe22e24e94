import { BODY_CONTENT_TYPES, managementRoute, NoContent, type ManagementRouteFactory } from '../../route.js';
import type { ConnectionService } from '../service.js';
import { IdParams, UpdateEnabledClientsBody } from '../schema.js';

/** PATCH /api/v2/connections/{id}/clients → 204; body `[{client_id, status}]`, 1 to 50 entries. */
export const updateConnectionClients: ManagementRouteFactory<ConnectionService> = (_ctx, connections) => managementRoute({
  method: 'PATCH',
  url: '/connections/:id/clients',
  config: { scopes: ['update:connections'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], params: IdParams, body: UpdateEnabledClientsBody, response: { 204: NoContent } },
  handler: async (request, reply) => {
    await connections.setClientStatus(request.tenant, request.params.id, request.body);
    return reply.code(204).send();
  },
});
