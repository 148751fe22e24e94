import { managementRoute, type ManagementRouteFactory } from '../route.js';
import { ClientIdParams, ClientResponse } from './schema.js';
import type { ClientService } from './service.js';

/** POST /api/v2/clients/{id}/rotate-secret → 200 with the client and its new secret. No body. */
export const rotateClientSecret: ManagementRouteFactory<ClientService> = (_ctx, clients) => managementRoute({
  method: 'POST',
  url: '/clients/:id/rotate-secret',
  config: { scopes: ['update:client_keys'] },
  schema: { params: ClientIdParams, response: { 200: ClientResponse } },
  handler: async (request) => clients.rotateSecret(request.tenant, request.params.id),
});
