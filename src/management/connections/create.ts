import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../route.js';
import type { ConnectionService } from './service.js';
import { ConnectionResponse, CreateConnectionBody } from './schema.js';

/** POST /api/v2/connections → 201; strategy `auth0` only (else 400 operation_not_supported). */
export const createConnection: ManagementRouteFactory<ConnectionService> = (_ctx, connections) => managementRoute({
  method: 'POST',
  url: '/connections',
  config: { scopes: ['create:connections'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], body: CreateConnectionBody, response: { 201: ConnectionResponse } },
  handler: async (request, reply) => reply.code(201).send(await connections.create(request.tenant, request.body)),
});
