import { managementRoute, type ManagementRouteFactory } from '../route.js';
import { EventStreamParams, EventStreamResponse } from './schema.js';
import type { EventStreamService } from './service.js';

/** GET /api/v2/event-streams/{id} */
export const getEventStream: ManagementRouteFactory<EventStreamService> = (_ctx, streams) => managementRoute({
  method: 'GET',
  url: '/event-streams/:id',
  config: { scopes: ['read:event_streams'] },
  schema: { params: EventStreamParams, response: { 200: EventStreamResponse } },
  handler: async (request) => streams.get(request.tenant, request.params.id),
});
