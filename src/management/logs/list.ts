import { managementRoute, sendSerialized, type ManagementRouteFactory } from '../route.js';
import { LogListQuery, LogListResponse } from './schema.js';
import type { LogService } from './service.js';

/**
 * GET /api/v2/logs → an array, or `{start, limit, length, total, logs}` with
 * include_totals; `from`/`take` checkpoint paging; `q` search; `sort`;
 * `fields`/`include_fields` (./service.ts).
 */
export const listLogs: ManagementRouteFactory<LogService> = (_ctx, logs) => managementRoute({
  method: 'GET',
  url: '/logs',
  config: { scopes: ['read:logs', 'read:logs_users'] },
  schema: { querystring: LogListQuery, response: { 200: LogListResponse } },
  handler: async (request, reply) => sendSerialized(reply, LogListResponse, await logs.list(request.tenant, request.query)),
});
