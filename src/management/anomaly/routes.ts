import type { ManagementRoute } from '../route.js';
import { checkBlockedIp } from './check-ip.js';
import { AnomalyService, type AnomalyServiceContext } from './service.js';
import { unblockIp } from './unblock-ip.js';

/** /api/v2/anomaly/blocks/ips/{id} */
export function anomalyRoutes(ctx: AnomalyServiceContext): ManagementRoute[] {
  const anomaly = new AnomalyService(ctx);
  return [checkBlockedIp, unblockIp].map((route) => route(ctx, anomaly));
}
