import { managementRoute, type ManagementRouteFactory } from '../route.js';
import { ProfileListQuery, ProfileListResponse } from './schema.js';
import type { UserAttributeProfileService } from './service.js';

/** GET /api/v2/user-attribute-profiles: checkpoint paging (`from`, `take` from 1, 5 by default), `{user_attribute_profiles, next?}`. */
export const listProfiles: ManagementRouteFactory<UserAttributeProfileService> = (_ctx, profiles) => managementRoute({
  method: 'GET',
  url: '/user-attribute-profiles',
  config: { scopes: ['read:user_attribute_profiles'] },
  schema: { querystring: ProfileListQuery, response: { 200: ProfileListResponse } },
  handler: async (request) => profiles.list(request.tenant, request.query),
});
