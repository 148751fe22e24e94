import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../../route.js';
import { ClientParams, CreateCredentialBody, CredentialResponse } from './schema.js';
import type { ClientCredentialService } from './service.js';

/** POST /api/v2/clients/{client_id}/credentials → 201 with the new credential. */
export const createClientCredential: ManagementRouteFactory<ClientCredentialService> = (_ctx, credentials) => managementRoute({
  method: 'POST',
  url: '/clients/:client_id/credentials',
  config: { scopes: ['create:client_credentials'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], params: ClientParams, body: CreateCredentialBody, response: { 201: CredentialResponse } },
  handler: async (request, reply) => reply.code(201).send(await credentials.create(request.tenant, request.params.client_id, request.body)),
});
