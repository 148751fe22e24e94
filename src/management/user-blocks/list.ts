import type { ManagementRouteFactory } from '../route.js';
import type { BruteForceProtection } from '../../authentication/brute-force.js';
import { ListQuery, ListUserBlocksByIdentifierResponse } from './schema.js';

/**
 * GET /api/v2/user-blocks?identifier= → `{blocked_for: [{identifier, ip, connection}]}`:
 * the brute-force blocks of that identifier (lower-cased, as logins count it) from every IP.
 */
export const listUserBlocksByIdentifier: ManagementRouteFactory<BruteForceProtection> = (_ctx, blocks) => ({
  method: 'GET',
  url: '/user-blocks',
  config: { scopes: ['read:users'] },
  schema: { querystring: ListQuery, response: { 200: ListUserBlocksByIdentifierResponse } },
  handler: async (request) => ({ blocked_for: await blocks.blocks(request.tenant.id, (request.query as ListQuery).identifier) }),
});
