import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../route.js';
import type { ScimConfigurationService } from './service.js';
import { CreateScimConfigurationBody, IdParams, ScimConfigurationResponse } from './schema.js';

/** POST /api/v2/connections/{id}/scim-configuration → 201; the default mapping unless one is given. */
export const createScimConfiguration: ManagementRouteFactory<ScimConfigurationService> = (_ctx, scim) => managementRoute({
  method: 'POST',
  url: '/connections/:id/scim-configuration',
  config: { scopes: ['create:scim_config'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], params: IdParams, body: CreateScimConfigurationBody, response: { 201: ScimConfigurationResponse } },
  handler: async (request, reply) => reply.code(201).send(await scim.create(request.tenant, request.params.id, request.body ?? undefined)),
});
