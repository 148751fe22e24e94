import { managementRoute, type ManagementRouteFactory } from '../route.js';
import { ListQuery, ListUserBlocksByIdentifierResponse } from './schema.js';
import type { UserBlockService } from './service.js';

/**
 * GET /api/v2/user-blocks?identifier= → `{blocked_for: [{identifier, ip, connection}]}`:
 * the brute-force blocks of that identifier (lower-cased, as logins count it) from every IP.
 */
export const listUserBlocksByIdentifier: ManagementRouteFactory<UserBlockService> = (_ctx, blocks) => managementRoute({
  method: 'GET',
  url: '/user-blocks',
  config: { scopes: ['read:users'] },
  schema: { querystring: ListQuery, response: { 200: ListUserBlocksByIdentifierResponse } },
  handler: async (request) => ({ blocked_for: await blocks.byIdentifier(request.tenant, request.query.identifier) }),
});
