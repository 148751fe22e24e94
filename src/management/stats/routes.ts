import type { ManagementRoute } from '../route.js';
import { getActiveUsersCount } from './active-users.js';
import { getDailyStats } from './daily.js';
import { StatsService, type StatsServiceContext } from './service.js';

/** /api/v2/stats */
export function statsRoutes(ctx: StatsServiceContext): ManagementRoute[] {
  const stats = new StatsService(ctx);
  return [getActiveUsersCount, getDailyStats].map((route) => route(ctx, stats));
}
