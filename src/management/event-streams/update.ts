import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../route.js';
import { EventStreamParams, EventStreamResponse, UpdateEventStreamBody } from './schema.js';
import type { EventStreamService } from './service.js';

/** PATCH /api/v2/event-streams/{id}: name, status, subscriptions, or a new webhook destination (its secret with it). */
export const updateEventStream: ManagementRouteFactory<EventStreamService> = (_ctx, streams) => managementRoute({
  method: 'PATCH',
  url: '/event-streams/:id',
  config: { scopes: ['update:event_streams'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], params: EventStreamParams, body: UpdateEventStreamBody, response: { 200: EventStreamResponse } },
  handler: async (request) => streams.update(request.tenant, request.params.id, request.body),
});
