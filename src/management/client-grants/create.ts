import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../route.js';
import type { ClientGrantService } from './service.js';
import { ClientGrantResponse, CreateClientGrantBody } from './schema.js';

/** POST /api/v2/client-grants → 201 */
export const createClientGrant: ManagementRouteFactory<ClientGrantService> = (_ctx, clientGrants) => managementRoute({
  method: 'POST',
  url: '/client-grants',
  config: { scopes: ['create:client_grants'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], body: CreateClientGrantBody, response: { 201: ClientGrantResponse } },
  handler: async (request, reply) => reply.code(201).send(await clientGrants.create(request.tenant, request.body)),
});
