import { managementRoute, type ManagementRouteFactory } from '../route.js';
import { offsetListResponse } from '../lists.js';
import { ProfileListQuery, ProfileResponse } from './schema.js';
import type { SelfServiceProfileService } from './service.js';

/** GET /api/v2/self-service-profiles: offset paging (a plain array, or `{self_service_profiles, start, limit, total}` with include_totals). */
export const listSelfServiceProfiles: ManagementRouteFactory<SelfServiceProfileService> = (_ctx, profiles) => managementRoute({
  method: 'GET',
  url: '/self-service-profiles',
  config: { scopes: ['read:self_service_profiles'] },
  schema: { querystring: ProfileListQuery, response: { 200: offsetListResponse('self_service_profiles', ProfileResponse) } },
  handler: async (request) => profiles.list(request.tenant, request.query),
});
