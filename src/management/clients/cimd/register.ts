import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../../route.js';
import { CimdBody, RegisterCimdResponse } from './schema.js';
import type { CimdService } from './service.js';

/**
 * POST /api/v2/clients/cimd/register: upserts the client of the document's
 * URL; 201 when created (create:clients), 200 when updated (update:clients).
 */
export const registerCimdClient: ManagementRouteFactory<CimdService> = (_ctx, cimd) => managementRoute({
  method: 'POST',
  url: '/clients/cimd/register',
  config: { scopes: ['create:clients', 'update:clients'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], body: CimdBody, response: { 200: RegisterCimdResponse, 201: RegisterCimdResponse } },
  handler: async (request, reply) => {
    const { created, body } = await cimd.register(request.tenant, request.body.external_client_id, request.principal!);
    return reply.code(created ? 201 : 200).send(body);
  },
});
