import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../route.js';
import { ClientResponse, CreateClientBody } from './schema.js';
import type { ClientService } from './service.js';

/** POST /api/v2/clients → 201 with the client, secret included. */
export const createClient: ManagementRouteFactory<ClientService> = (_ctx, clients) => managementRoute({
  method: 'POST',
  url: '/clients',
  config: { scopes: ['create:clients'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], body: CreateClientBody, response: { 201: ClientResponse } },
  handler: async (request, reply) =>
    reply.code(201).send(await clients.create(request.tenant, request.body, request.principal!)),
});
