import type { LogService } from '../../logs/service.js';
import { LogListResponse, UserLogListQuery } from '../../logs/schema.js';
import { managementRoute, type ManagementRouteFactory } from '../../route.js';
import { userIdParams } from '../schema.js';

const Params = userIdParams('ID of the user of the logs to retrieve');

/** GET /api/v2/users/{id}/logs → the user's events, offset paging, `sort` by date (newest first by default). */
export const listUserLogs: ManagementRouteFactory<LogService> = (_ctx, logs) => managementRoute({
  method: 'GET',
  url: '/users/:id/logs',
  config: { scopes: ['read:logs', 'read:logs_users'] },
  schema: { params: Params, querystring: UserLogListQuery, response: { 200: LogListResponse } },
  handler: async (request) => logs.listForUser(request.tenant, request.params.id, request.query),
});
