import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../route.js';
import { CreateEventStreamBody, EventStreamResponse } from './schema.js';
import type { EventStreamService } from './service.js';

/** POST /api/v2/event-streams → 201: a new stream with a `webhook` destination; other types are refused. */
export const createEventStream: ManagementRouteFactory<EventStreamService> = (_ctx, streams) => managementRoute({
  method: 'POST',
  url: '/event-streams',
  config: { scopes: ['create:event_streams'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], body: CreateEventStreamBody, response: { 201: EventStreamResponse } },
  handler: async (request, reply) => reply.code(201).send(await streams.create(request.tenant, request.body)),
});
