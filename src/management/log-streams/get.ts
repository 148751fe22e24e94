import { managementRoute, type ManagementRouteFactory } from '../route.js';
import { LogStreamParams, LogStreamResponse } from './schema.js';
import type { LogStreamService } from './service.js';

/** GET /api/v2/log-streams/{id} */
export const getLogStream: ManagementRouteFactory<LogStreamService> = (_ctx, streams) => managementRoute({
  method: 'GET',
  url: '/log-streams/:id',
  config: { scopes: ['read:log_streams'] },
  schema: { params: LogStreamParams, response: { 200: LogStreamResponse } },
  handler: async (request) => streams.get(request.tenant, request.params.id),
});
