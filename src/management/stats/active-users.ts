import { managementRoute, type ManagementRouteFactory } from '../route.js';
import { ActiveUsersResponse } from './schema.js';
import type { StatsService } from './service.js';

/** GET /api/v2/stats/active-users: a bare number, the users who logged in during the last 30 days. */
export const getActiveUsersCount: ManagementRouteFactory<StatsService> = (_ctx, stats) => managementRoute({
  method: 'GET',
  url: '/stats/active-users',
  config: { scopes: ['read:stats'] },
  schema: { response: { 200: ActiveUsersResponse } },
  handler: async (request) => stats.activeUsers(request.tenant),
});
