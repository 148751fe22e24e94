import { managementRoute, type ManagementRouteFactory } from '../route.js';
import { ProfileListQuery, ProfileListResponse } from './schema.js';
import type { ConnectionProfileService } from './service.js';

/** GET /api/v2/connection-profiles: checkpoint paging (`from`, `take`: 5 by default, 10 at most), `{connection_profiles, next?}`. */
export const listProfiles: ManagementRouteFactory<ConnectionProfileService> = (_ctx, profiles) => managementRoute({
  method: 'GET',
  url: '/connection-profiles',
  config: { scopes: ['read:connection_profiles'] },
  schema: { querystring: ProfileListQuery, response: { 200: ProfileListResponse } },
  handler: async (request) => profiles.list(request.tenant, request.query),
});
