import { managementRoute, type ManagementRouteFactory } from '../route.js';
import { ListQuery, ListResponse } from './schema.js';
import type { ConsentGrantService } from './service.js';

/**
 * GET /api/v2/grants: an array, or `{start, limit, total, grants}` with
 * include_totals; filtered by user_id, client_id and audience (exact matches),
 * in id order. Without per_page a page holds 50, as the service caps
 * unpaginated lists (management-api-wire-notes §1 "Defaults").
 */
export const listUserGrants: ManagementRouteFactory<ConsentGrantService> = (_ctx, grants) => managementRoute({
  method: 'GET',
  url: '/grants',
  config: { scopes: ['read:grants'] },
  schema: { querystring: ListQuery, response: { 200: ListResponse } },
  handler: async (request) => {
    const { page, per_page, include_totals, user_id, client_id, audience } = request.query;
    return grants.list(
      request.tenant,
      { ...(user_id !== undefined && { user_id }), ...(client_id !== undefined && { client_id }), ...(audience !== undefined && { audience }) },
      { page: page ?? 0, perPage: per_page ?? 50, includeTotals: include_totals === true },
    );
  },
});
