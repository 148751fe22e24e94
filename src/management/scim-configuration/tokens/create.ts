import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../../route.js';
import type { ScimConfigurationService } from '../service.js';
import { CreateScimTokenBody, CreateScimTokenResponse, IdParams } from '../schema.js';

/** POST /api/v2/connections/{id}/scim-configuration/tokens → 201 with the token, shown only here (409 past two). */
export const createScimToken: ManagementRouteFactory<ScimConfigurationService> = (_ctx, scim) => managementRoute({
  method: 'POST',
  url: '/connections/:id/scim-configuration/tokens',
  config: { scopes: ['create:scim_token'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], params: IdParams, body: CreateScimTokenBody, response: { 201: CreateScimTokenResponse } },
  handler: async (request, reply) => reply.code(201).send(await scim.createToken(request.tenant, request.params.id, request.body)),
});
