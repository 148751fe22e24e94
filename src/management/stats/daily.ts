import { managementRoute, type ManagementRouteFactory } from '../route.js';
import { DailyQuery, DailyStatsResponse } from './schema.js';
import type { StatsService } from './service.js';

/** GET /api/v2/stats/daily?from=YYYYMMDD&to=YYYYMMDD: logins, signups and breached-password detections per day. */
export const getDailyStats: ManagementRouteFactory<StatsService> = (_ctx, stats) => managementRoute({
  method: 'GET',
  url: '/stats/daily',
  config: { scopes: ['read:stats'] },
  schema: { querystring: DailyQuery, response: { 200: DailyStatsResponse } },
  handler: async (request) => stats.daily(request.tenant, request.query),
});
