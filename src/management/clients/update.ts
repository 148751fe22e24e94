import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../route.js';
import { ClientIdParams, UpdateClientBody } from './schema.js';
import type { ClientService } from './service.js';

/** PATCH /api/v2/clients/{id} → 200 with the updated client. */
export const updateClient: ManagementRouteFactory<ClientService> = (_ctx, clients) => managementRoute({
  method: 'PATCH',
  url: '/clients/:id',
  config: { scopes: ['update:clients', 'update:client_keys', 'update:client_credentials', 'update:client_token_vault_privileged_access'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], params: ClientIdParams, body: UpdateClientBody },
  handler: async (request) =>
    clients.update(request.tenant, request.params.id, request.body, request.principal!),
});
