import { managementRoute, type ManagementRouteFactory } from '../route.js';
import { ProfileIdParams, ProfileResponse } from './schema.js';
import type { SelfServiceProfileService } from './service.js';

/** GET /api/v2/self-service-profiles/{id}. */
export const getSelfServiceProfile: ManagementRouteFactory<SelfServiceProfileService> = (_ctx, profiles) => managementRoute({
  method: 'GET',
  url: '/self-service-profiles/:id',
  config: { scopes: ['read:self_service_profiles'] },
  schema: { params: ProfileIdParams, response: { 200: ProfileResponse } },
  handler: async (request) => profiles.get(request.tenant, request.params.id),
});
