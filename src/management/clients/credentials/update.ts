import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../../route.js';
import { CredentialParams, CredentialResponse, UpdateCredentialBody } from './schema.js';
import type { ClientCredentialService } from './service.js';

/** PATCH /api/v2/clients/{client_id}/credentials/{credential_id} → 201 (as the service's OpenAPI document answers an update): its expiry. */
export const updateClientCredential: ManagementRouteFactory<ClientCredentialService> = (_ctx, credentials) => managementRoute({
  method: 'PATCH',
  url: '/clients/:client_id/credentials/:credential_id',
  config: { scopes: ['update:client_credentials'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], params: CredentialParams, body: UpdateCredentialBody, response: { 201: CredentialResponse } },
  handler: async (request, reply) =>
    reply.code(201).send(await credentials.update(request.tenant, request.params.client_id, request.params.credential_id, request.body.expires_at)),
});
