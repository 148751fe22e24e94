import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../route.js';
import { LogStreamParams, LogStreamResponse, UpdateLogStreamBody } from './schema.js';
import type { LogStreamService } from './service.js';

/** PATCH /api/v2/log-streams/{id}: name, status (pause, resume), filters, sink. */
export const updateLogStream: ManagementRouteFactory<LogStreamService> = (_ctx, streams) => managementRoute({
  method: 'PATCH',
  url: '/log-streams/:id',
  config: { scopes: ['update:log_streams'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], params: LogStreamParams, body: UpdateLogStreamBody, response: { 200: LogStreamResponse } },
  handler: async (request) => streams.update(request.tenant, request.params.id, request.body),
});
