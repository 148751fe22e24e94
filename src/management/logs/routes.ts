import type { ManagementRoute } from '../route.js';
import { listUserLogs } from '../users/logs/list.js';
import { getLog } from './get.js';
import { listLogs } from './list.js';
import { LogService } from './service.js';
import type { AppContext } from '../../domain/context.js';

/** /api/v2/logs, /api/v2/logs/{id} and /api/v2/users/{id}/logs */
export function logRoutes(ctx: AppContext): ManagementRoute[] {
  const logs = new LogService(ctx);
  return [listLogs, getLog, listUserLogs].map((route) => route(ctx, logs));
}
