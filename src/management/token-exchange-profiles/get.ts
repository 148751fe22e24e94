import { managementRoute, type ManagementRouteFactory } from '../route.js';
import { ProfileParams, ProfileResponse } from './schema.js';
import type { TokenExchangeProfileService } from './service.js';

/** GET /api/v2/token-exchange-profiles/{id} */
export const getProfile: ManagementRouteFactory<TokenExchangeProfileService> = (_ctx, profiles) => managementRoute({
  method: 'GET',
  url: '/token-exchange-profiles/:id',
  config: { scopes: ['read:token_exchange_profiles'] },
  schema: { params: ProfileParams, response: { 200: ProfileResponse } },
  handler: async (request) => profiles.get(request.tenant, request.params.id),
});
