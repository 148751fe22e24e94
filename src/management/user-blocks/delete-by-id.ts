import { managementRoute, NoContent, type ManagementRouteFactory } from '../route.js';
import { userBlocksParams } from './schema.js';
import type { UserBlockService } from './service.js';

/**
 * DELETE /api/v2/user-blocks/{id} → 204: removes the user's brute-force
 * blocks (not an administrator's `blocked` flag); 404 `inexistent_user` for
 * an unknown user.
 */
export const deleteUserBlocks: ManagementRouteFactory<UserBlockService> = (_ctx, blocks) => managementRoute({
  method: 'DELETE',
  url: '/user-blocks/:id',
  config: { scopes: ['update:users'] },
  schema: { params: userBlocksParams('The user_id of the user to update.'), response: { 204: NoContent } },
  handler: async (request, reply) => {
    await blocks.unblockUserId(request.tenant, request.params.id);
    return reply.code(204).send();
  },
});
