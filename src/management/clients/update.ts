import { BODY_CONTENT_TYPES, managementRoute, sendSerialized, type ManagementRouteFactory } from '../route.js';
import { clientSchemas } from './fields.js';
import { ClientIdParams, ClientResponse, UpdateClientBody } from './schema.js';
import { updateResponseAccess, type ClientService } from './service.js';

/**
 * PATCH /api/v2/clients/{id} → 200 with the updated client, serialised with
 * the members the token may read (its credentials only to tokens that may
 * handle them).
 */
export const updateClient: ManagementRouteFactory<ClientService> = (_ctx, clients) => managementRoute({
  method: 'PATCH',
  url: '/clients/:id',
  config: { scopes: ['update:clients', 'update:client_keys', 'update:client_credentials', 'update:client_token_vault_privileged_access'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], params: ClientIdParams, body: UpdateClientBody, response: { 200: ClientResponse } },
  handler: async (request, reply) => {
    const access = updateResponseAccess(request.principal!.scopes);
    const client = await clients.update(request.tenant, request.params.id, request.body, request.principal!, access);
    return sendSerialized(reply, clientSchemas(access).client, client);
  },
});
