import { managementRoute, type ManagementRouteFactory } from '../route.js';
import { RefreshTokenIdParams, RefreshTokenResponse, UpdateBody } from './schema.js';
import type { RefreshTokenService } from './service.js';

/** PATCH /api/v2/refresh-tokens/{id}: sets `refresh_token_metadata`, kept by the token's successors. */
export const updateRefreshToken: ManagementRouteFactory<RefreshTokenService> = (_ctx, tokens) => managementRoute({
  method: 'PATCH',
  url: '/refresh-tokens/:id',
  config: { scopes: ['update:refresh_tokens'] },
  schema: { params: RefreshTokenIdParams, body: UpdateBody, response: { 200: RefreshTokenResponse } },
  handler: async (request) => tokens.update(request.tenant, request.params.id, request.body.refresh_token_metadata),
});
