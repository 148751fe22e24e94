/** /api/v2/clients/{client_id}/credentials: one file per operation would repeat five short handlers; they share this module's service. */
import { Type } from '@sinclair/typebox';
import { BODY_CONTENT_TYPES, managementRoute, NoContent, type ManagementRoute } from '../../route.js';
import { ClientParams, CreateCredentialBody, CredentialParams, CredentialResponse, UpdateCredentialBody } from './schema.js';
import { ClientCredentialService, type ClientCredentialServiceContext } from './service.js';

export function clientCredentialRoutes(ctx: ClientCredentialServiceContext): ManagementRoute[] {
  const credentials = new ClientCredentialService(ctx);
  return [
    managementRoute({
      method: 'GET',
      url: '/clients/:client_id/credentials',
      config: { scopes: ['read:client_credentials'] },
      schema: { params: ClientParams, response: { 200: Type.Array(CredentialResponse) } },
      handler: async (request) => credentials.list(request.tenant, request.params.client_id),
    }),
    managementRoute({
      method: 'POST',
      url: '/clients/:client_id/credentials',
      config: { scopes: ['create:client_credentials'] },
      schema: { consumes: [...BODY_CONTENT_TYPES], params: ClientParams, body: CreateCredentialBody, response: { 201: CredentialResponse } },
      handler: async (request, reply) => reply.code(201).send(await credentials.create(request.tenant, request.params.client_id, request.body)),
    }),
    managementRoute({
      method: 'GET',
      url: '/clients/:client_id/credentials/:credential_id',
      config: { scopes: ['read:client_credentials'] },
      schema: { params: CredentialParams, response: { 200: CredentialResponse } },
      handler: async (request) => credentials.get(request.tenant, request.params.client_id, request.params.credential_id),
    }),
    managementRoute({
      method: 'PATCH',
      url: '/clients/:client_id/credentials/:credential_id',
      config: { scopes: ['update:client_credentials'] },
      // 201, as the service's OpenAPI document answers an update.
      schema: { consumes: [...BODY_CONTENT_TYPES], params: CredentialParams, body: UpdateCredentialBody, response: { 201: CredentialResponse } },
      handler: async (request, reply) =>
        reply.code(201).send(await credentials.update(request.tenant, request.params.client_id, request.params.credential_id, request.body.expires_at)),
    }),
    managementRoute({
      method: 'DELETE',
      url: '/clients/:client_id/credentials/:credential_id',
      config: { scopes: ['delete:client_credentials'] },
      schema: { params: CredentialParams, response: { 204: NoContent } },
      handler: async (request, reply) => {
        await credentials.delete(request.tenant, request.params.client_id, request.params.credential_id);
        return reply.code(204).send();
      },
    }),
  ];
}
