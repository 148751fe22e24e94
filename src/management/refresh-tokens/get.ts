import { managementRoute, type ManagementRouteFactory } from '../route.js';
import { RefreshTokenIdParams, RefreshTokenResponse } from './schema.js';
import type { RefreshTokenService } from './service.js';

/** GET /api/v2/refresh-tokens/{id}: an active refresh token (its family). */
export const getRefreshToken: ManagementRouteFactory<RefreshTokenService> = (_ctx, tokens) => managementRoute({
  method: 'GET',
  url: '/refresh-tokens/:id',
  config: { scopes: ['read:refresh_tokens'] },
  schema: { params: RefreshTokenIdParams, response: { 200: RefreshTokenResponse } },
  handler: async (request) => tokens.get(request.tenant, request.params.id),
});
