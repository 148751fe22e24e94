import { BODY_CONTENT_TYPES, type ManagementRouteFactory } from '../route.js';
import { ClientIdParams, UpdateClientBody, type ClientBody } from './schema.js';
import type { ClientService } from './service.js';

/** PATCH /api/v2/clients/{id} → 200 with the updated client. */
export const updateClient: ManagementRouteFactory<ClientService> = (_ctx, clients) => ({
  method: 'PATCH',
  url: '/clients/:id',
  config: { scopes: ['update:clients', 'update:client_keys', 'update:client_credentials', 'update:client_token_vault_privileged_access'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], params: ClientIdParams, body: UpdateClientBody },
  handler: async (request) =>
    clients.update(request.tenant, (request.params as { id: string }).id, request.body as ClientBody, request.principal!),
});
