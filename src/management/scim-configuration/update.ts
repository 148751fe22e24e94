import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../route.js';
import type { ScimConfigurationService } from './service.js';
import { IdParams, ScimConfigurationResponse, UpdateScimConfigurationBody } from './schema.js';

/** PATCH /api/v2/connections/{id}/scim-configuration: the mapping and the user id attribute, both required. */
export const updateScimConfiguration: ManagementRouteFactory<ScimConfigurationService> = (_ctx, scim) => managementRoute({
  method: 'PATCH',
  url: '/connections/:id/scim-configuration',
  config: { scopes: ['update:scim_config'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], params: IdParams, body: UpdateScimConfigurationBody, response: { 200: ScimConfigurationResponse } },
  handler: async (request) => scim.update(request.tenant, request.params.id, request.body),
});
