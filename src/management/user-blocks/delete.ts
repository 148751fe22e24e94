import { managementRoute, NoContent, type ManagementRouteFactory } from '../route.js';
import { IdentifierQuery } from './schema.js';
import type { UserBlockService } from './service.js';

/**
 * DELETE /api/v2/user-blocks?identifier= → 204: removes the identifier's
 * brute-force blocks from every IP (not an administrator's `blocked` flag).
 */
export const deleteUserBlocksByIdentifier: ManagementRouteFactory<UserBlockService> = (_ctx, blocks) => managementRoute({
  method: 'DELETE',
  url: '/user-blocks',
  config: { scopes: ['update:users'] },
  schema: { querystring: IdentifierQuery, response: { 204: NoContent } },
  handler: async (request, reply) => {
    await blocks.unblockIdentifier(request.tenant, request.query.identifier);
    return reply.code(204).send();
  },
});
