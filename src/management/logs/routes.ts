import type { ManagementRoute } from '../route.js';
import { listUserLogs } from '../users/logs/list.js';
import { getLog } from './get.js';
import { listLogs } from './list.js';
import { LogService, type LogServiceContext } from './service.js';

/** /api/v2/logs, /api/v2/logs/{id} and /api/v2/users/{id}/logs */
export function logRoutes(ctx: LogServiceContext): ManagementRoute[] {
  const logs = new LogService(ctx);
  return [listLogs, getLog, listUserLogs].map((route) => route(ctx, logs));
}
