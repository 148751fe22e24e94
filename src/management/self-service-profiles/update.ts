import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../route.js';
import { ProfileIdParams, ProfileResponse, UpdateProfileBody } from './schema.js';
import type { SelfServiceProfileService } from './service.js';

/** PATCH /api/v2/self-service-profiles/{id}: the members given; `description`, `branding` and `user_attributes` cleared by null. */
export const updateSelfServiceProfile: ManagementRouteFactory<SelfServiceProfileService> = (_ctx, profiles) => managementRoute({
  method: 'PATCH',
  url: '/self-service-profiles/:id',
  config: { scopes: ['update:self_service_profiles'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], params: ProfileIdParams, body: UpdateProfileBody, response: { 200: ProfileResponse } },
  handler: async (request) => profiles.update(request.tenant, request.params.id, request.body),
});
