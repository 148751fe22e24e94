import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../route.js';
import { ProfileParams, ProfileResponse, UpdateProfileBody } from './schema.js';
import type { UserAttributeProfileService } from './service.js';

/** PATCH /api/v2/user-attribute-profiles/{id}: the members given replace theirs, the others stay; `user_id: null` removes the user id mapping. */
export const updateProfile: ManagementRouteFactory<UserAttributeProfileService> = (_ctx, profiles) => managementRoute({
  method: 'PATCH',
  url: '/user-attribute-profiles/:id',
  config: { scopes: ['update:user_attribute_profiles'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], params: ProfileParams, body: UpdateProfileBody, response: { 200: ProfileResponse } },
  handler: async (request) => profiles.update(request.tenant, request.params.id, request.body),
});
