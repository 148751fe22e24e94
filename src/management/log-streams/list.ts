import { Type } from '@sinclair/typebox';
import { managementRoute, type ManagementRouteFactory } from '../route.js';
import { LogStreamResponse } from './schema.js';
import type { LogStreamService } from './service.js';

/** GET /api/v2/log-streams: every log stream of the tenant. */
export const listLogStreams: ManagementRouteFactory<LogStreamService> = (_ctx, streams) => managementRoute({
  method: 'GET',
  url: '/log-streams',
  config: { scopes: ['read:log_streams'] },
  schema: { response: { 200: Type.Array(LogStreamResponse) } },
  handler: async (request) => streams.list(request.tenant),
});
