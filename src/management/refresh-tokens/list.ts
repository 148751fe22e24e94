import { managementRoute, type ManagementRouteFactory } from '../route.js';
import { checkpointListResponse } from '../lists.js';
import { Type } from '@sinclair/typebox';
import { ListQuery, RefreshTokenResponse } from './schema.js';
import type { RefreshTokenService } from './service.js';

/** GET /api/v2/refresh-tokens?user_id= → `{refresh_tokens, next?}`: checkpoint paging, by client, `fields` selection. */
export const listRefreshTokens: ManagementRouteFactory<RefreshTokenService> = (_ctx, tokens) => managementRoute({
  method: 'GET',
  url: '/refresh-tokens',
  config: { scopes: ['read:refresh_tokens'] },
  schema: { querystring: ListQuery, response: { 200: checkpointListResponse('refresh_tokens', Type.Partial(RefreshTokenResponse)) } },
  handler: async (request) => tokens.list(request.tenant, request.query),
});
