import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../route.js';
import { ProfileParams, ProfileResponse, UpdateProfileBody } from './schema.js';
import type { ConnectionProfileService } from './service.js';

/** PATCH /api/v2/connection-profiles/{id}: the members given replace theirs, the others stay. */
export const updateProfile: ManagementRouteFactory<ConnectionProfileService> = (_ctx, profiles) => managementRoute({
  method: 'PATCH',
  url: '/connection-profiles/:id',
  config: { scopes: ['update:connection_profiles'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], params: ProfileParams, body: UpdateProfileBody, response: { 200: ProfileResponse } },
  handler: async (request) => profiles.update(request.tenant, request.params.id, request.body),
});
