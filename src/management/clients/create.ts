import { BODY_CONTENT_TYPES, type ManagementRouteFactory } from '../route.js';
import { CreateClientBody, type ClientBody } from './schema.js';
import type { ClientService } from './service.js';

/** POST /api/v2/clients → 201 with the client, secret included. */
export const createClient: ManagementRouteFactory<ClientService> = (_ctx, clients) => ({
  method: 'POST',
  url: '/clients',
  config: { scopes: ['create:clients'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], body: CreateClientBody },
  handler: async (request, reply) =>
    reply.code(201).send(await clients.create(request.tenant, request.body as ClientBody, request.principal!)),
});
