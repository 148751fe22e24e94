import type { ManagementRouteFactory } from '../route.js';
import type { BruteForceProtection } from '../../authentication/brute-force.js';
import { IdentifierQuery } from './schema.js';

/**
 * DELETE /api/v2/user-blocks?identifier= → 204: removes the identifier's
 * brute-force blocks from every IP (not an administrator's `blocked` flag).
 */
export const deleteUserBlocksByIdentifier: ManagementRouteFactory<BruteForceProtection> = (_ctx, blocks) => ({
  method: 'DELETE',
  url: '/user-blocks',
  config: { scopes: ['update:users'] },
  schema: { querystring: IdentifierQuery },
  handler: async (request, reply) => {
    await blocks.unblock(request.tenant.id, (request.query as IdentifierQuery).identifier);
    return reply.code(204).send();
  },
});
