import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../route.js';
import { CreateProfileBody, ProfileResponse } from './schema.js';
import type { UserAttributeProfileService } from './service.js';

/** POST /api/v2/user-attribute-profiles → 201 */
export const createProfile: ManagementRouteFactory<UserAttributeProfileService> = (_ctx, profiles) => managementRoute({
  method: 'POST',
  url: '/user-attribute-profiles',
  config: { scopes: ['create:user_attribute_profiles'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], body: CreateProfileBody, response: { 201: ProfileResponse } },
  handler: async (request, reply) => reply.code(201).send(await profiles.create(request.tenant, request.body)),
});
