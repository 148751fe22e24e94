import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../route.js';
import { ProfileParams, ProfileResponse, UpdateProfileBody } from './schema.js';
import type { TokenExchangeProfileService } from './service.js';

/** PATCH /api/v2/token-exchange-profiles/{id}: `name`, `subject_token_type` (the action and the type stay). */
export const updateProfile: ManagementRouteFactory<TokenExchangeProfileService> = (_ctx, profiles) => managementRoute({
  method: 'PATCH',
  url: '/token-exchange-profiles/:id',
  config: { scopes: ['update:token_exchange_profiles'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], params: ProfileParams, body: UpdateProfileBody, response: { 200: ProfileResponse } },
  handler: async (request) => profiles.update(request.tenant, request.params.id, request.body),
});
