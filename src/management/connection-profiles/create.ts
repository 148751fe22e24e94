import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../route.js';
import { CreateProfileBody, ProfileResponse } from './schema.js';
import type { ConnectionProfileService } from './service.js';

/** POST /api/v2/connection-profiles → 201 */
export const createProfile: ManagementRouteFactory<ConnectionProfileService> = (_ctx, profiles) => managementRoute({
  method: 'POST',
  url: '/connection-profiles',
  config: { scopes: ['create:connection_profiles'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], body: CreateProfileBody, response: { 201: ProfileResponse } },
  handler: async (request, reply) => reply.code(201).send(await profiles.create(request.tenant, request.body)),
});
