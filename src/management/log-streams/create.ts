import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../route.js';
import { CreateLogStreamBody, LogStreamResponse } from './schema.js';
import type { LogStreamService } from './service.js';

/** POST /api/v2/log-streams → 200 (as the document answers): a new `http` stream; other types are refused. */
export const createLogStream: ManagementRouteFactory<LogStreamService> = (_ctx, streams) => managementRoute({
  method: 'POST',
  url: '/log-streams',
  config: { scopes: ['create:log_streams'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], body: CreateLogStreamBody, response: { 200: LogStreamResponse } },
  handler: async (request) => streams.create(request.tenant, request.body),
});
