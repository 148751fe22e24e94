import { managementRoute, type ManagementRouteFactory } from '../route.js';
import type { ScimConfigurationService } from './service.js';
import { DefaultMappingResponse, IdParams } from './schema.js';

/** GET /api/v2/connections/{id}/scim-configuration/default-mapping */
export const getScimDefaultMapping: ManagementRouteFactory<ScimConfigurationService> = (_ctx, scim) => managementRoute({
  method: 'GET',
  url: '/connections/:id/scim-configuration/default-mapping',
  config: { scopes: ['read:scim_config'] },
  schema: { params: IdParams, response: { 200: DefaultMappingResponse } },
  handler: async (request) => scim.defaultMapping(request.tenant, request.params.id),
});
