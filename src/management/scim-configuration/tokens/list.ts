import { managementRoute, type ManagementRouteFactory } from '../../route.js';
import type { ScimConfigurationService } from '../service.js';
import { IdParams, ScimTokenList } from '../schema.js';

/** GET /api/v2/connections/{id}/scim-configuration/tokens: the tokens without their secret. */
export const listScimTokens: ManagementRouteFactory<ScimConfigurationService> = (_ctx, scim) => managementRoute({
  method: 'GET',
  url: '/connections/:id/scim-configuration/tokens',
  config: { scopes: ['read:scim_token'] },
  schema: { params: IdParams, response: { 200: ScimTokenList } },
  handler: async (request) => scim.listTokens(request.tenant, request.params.id),
});
