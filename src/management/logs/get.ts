import { managementRoute, type ManagementRouteFactory } from '../route.js';
import { LogIdParams, LogResponse } from './schema.js';
import type { LogService } from './service.js';

/** GET /api/v2/logs/{id}: one event by its log_id. */
export const getLog: ManagementRouteFactory<LogService> = (_ctx, logs) => managementRoute({
  method: 'GET',
  url: '/logs/:id',
  config: { scopes: ['read:logs', 'read:logs_users'] },
  schema: { params: LogIdParams, response: { 200: LogResponse } },
  handler: async (request) => logs.get(request.tenant, request.params.id),
});
