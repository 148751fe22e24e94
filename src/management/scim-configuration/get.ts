import { managementRoute, type ManagementRouteFactory } from '../route.js';
import type { ScimConfigurationService } from './service.js';
import { IdParams, ScimConfigurationResponse } from './schema.js';

/** GET /api/v2/connections/{id}/scim-configuration */
export const getScimConfiguration: ManagementRouteFactory<ScimConfigurationService> = (_ctx, scim) => managementRoute({
  method: 'GET',
  url: '/connections/:id/scim-configuration',
  config: { scopes: ['read:scim_config'] },
  schema: { params: IdParams, response: { 200: ScimConfigurationResponse } },
  handler: async (request) => scim.get(request.tenant, request.params.id),
});
