import { managementRoute, type ManagementRouteFactory } from '../route.js';
import { ProfileParams, ProfileResponse } from './schema.js';
import type { ConnectionProfileService } from './service.js';

/** GET /api/v2/connection-profiles/{id} */
export const getProfile: ManagementRouteFactory<ConnectionProfileService> = (_ctx, profiles) => managementRoute({
  method: 'GET',
  url: '/connection-profiles/:id',
  config: { scopes: ['read:connection_profiles'] },
  schema: { params: ProfileParams, response: { 200: ProfileResponse } },
  handler: async (request) => profiles.get(request.tenant, request.params.id),
});
