import { managementRoute, type ManagementRouteFactory } from '../route.js';
import { checkpointListResponse } from '../lists.js';
import { RefreshTokenResponse, UserIdParams, UserListQuery } from './schema.js';
import type { RefreshTokenService } from './service.js';

/** GET /api/v2/users/{user_id}/refresh-tokens → `{tokens, next?}`. */
export const listUserRefreshTokens: ManagementRouteFactory<RefreshTokenService> = (_ctx, tokens) => managementRoute({
  method: 'GET',
  url: '/users/:user_id/refresh-tokens',
  config: { scopes: ['read:refresh_tokens'] },
  schema: { params: UserIdParams, querystring: UserListQuery, response: { 200: checkpointListResponse('tokens', RefreshTokenResponse) } },
  handler: async (request) => tokens.listForUser(request.tenant, request.params.user_id, request.query),
});
