import { managementRoute, type ManagementRouteFactory } from '../route.js';
import { ProfileListQuery, ProfileListResponse } from './schema.js';
import type { TokenExchangeProfileService } from './service.js';

/** GET /api/v2/token-exchange-profiles: checkpoint paging (`from`, `take`), `{token_exchange_profiles, next?}`. */
export const listProfiles: ManagementRouteFactory<TokenExchangeProfileService> = (_ctx, profiles) => managementRoute({
  method: 'GET',
  url: '/token-exchange-profiles',
  config: { scopes: ['read:token_exchange_profiles'] },
  schema: { querystring: ProfileListQuery, response: { 200: ProfileListResponse } },
  handler: async (request) => profiles.list(request.tenant, request.query),
});
