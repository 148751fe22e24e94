import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../route.js';
import { CreateProfileBody, ProfileResponse } from './schema.js';
import type { SelfServiceProfileService } from './service.js';

/** POST /api/v2/self-service-profiles → 201. */
export const createSelfServiceProfile: ManagementRouteFactory<SelfServiceProfileService> = (_ctx, profiles) => managementRoute({
  method: 'POST',
  url: '/self-service-profiles',
  config: { scopes: ['create:self_service_profiles'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], body: CreateProfileBody, response: { 201: ProfileResponse } },
  handler: async (request, reply) => reply.code(201).send(await profiles.create(request.tenant, request.body)),
});
