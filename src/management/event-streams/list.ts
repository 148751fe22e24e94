import { managementRoute, type ManagementRouteFactory } from '../route.js';
import { EventStreamListQuery, EventStreamListResponse } from './schema.js';
import type { EventStreamService } from './service.js';

/** GET /api/v2/event-streams: checkpoint pages `{eventStreams, next?}`. */
export const listEventStreams: ManagementRouteFactory<EventStreamService> = (_ctx, streams) => managementRoute({
  method: 'GET',
  url: '/event-streams',
  config: { scopes: ['read:event_streams'] },
  schema: { querystring: EventStreamListQuery, response: { 200: EventStreamListResponse } },
  handler: async (request) => streams.list(request.tenant, request.query),
});
