import { managementRoute, type ManagementRouteFactory } from '../route.js';
import type { ScimConfigurationService } from './service.js';
import { ScimConfigurationListQuery, ScimConfigurationListResponse } from './schema.js';

/** GET /api/v2/connections-scim-configurations → `{scim_configurations, next?}`, checkpoint paging by connection id. */
export const listScimConfigurations: ManagementRouteFactory<ScimConfigurationService> = (_ctx, scim) => managementRoute({
  method: 'GET',
  url: '/connections-scim-configurations',
  config: { scopes: ['read:scim_config'] },
  schema: { querystring: ScimConfigurationListQuery, response: { 200: ScimConfigurationListResponse } },
  handler: async (request) => scim.list(request.tenant, request.query),
});
