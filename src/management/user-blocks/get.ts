import { managementRoute, type ManagementRouteFactory } from '../route.js';
import { ListUserBlocksResponse, userBlocksParams, UserBlocksQuery } from './schema.js';
import type { UserBlockService } from './service.js';

/**
 * GET /api/v2/user-blocks/{id} → `{blocked_for: [{identifier, ip, connection}]}`:
 * the brute-force blocks of the user's email and username in the user's
 * connection, from every IP; 404 `inexistent_user` for an unknown user.
 */
export const listUserBlocks: ManagementRouteFactory<UserBlockService> = (_ctx, blocks) => managementRoute({
  method: 'GET',
  url: '/user-blocks/:id',
  config: { scopes: ['read:users'] },
  schema: { params: userBlocksParams('user_id of the user blocks to retrieve.'), querystring: UserBlocksQuery, response: { 200: ListUserBlocksResponse } },
  handler: async (request) => ({ blocked_for: await blocks.byUserId(request.tenant, request.params.id) }),
});
