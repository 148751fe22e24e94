import { managementRoute, type ManagementRouteFactory } from '../route.js';
import { ProfileParams, ProfileResponse } from './schema.js';
import type { UserAttributeProfileService } from './service.js';

/** GET /api/v2/user-attribute-profiles/{id} */
export const getProfile: ManagementRouteFactory<UserAttributeProfileService> = (_ctx, profiles) => managementRoute({
  method: 'GET',
  url: '/user-attribute-profiles/:id',
  config: { scopes: ['read:user_attribute_profiles'] },
  schema: { params: ProfileParams, response: { 200: ProfileResponse } },
  handler: async (request) => profiles.get(request.tenant, request.params.id),
});
