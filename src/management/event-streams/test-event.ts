import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../route.js';
import { DeliveryResponse, EventStreamParams, TestEventBody } from './schema.js';
import type { EventStreamService } from './service.js';

/** POST /api/v2/event-streams/{id}/test → 202: a test event of the type queued for the stream (status `pending`). */
export const testEventStream: ManagementRouteFactory<EventStreamService> = (_ctx, streams) => managementRoute({
  method: 'POST',
  url: '/event-streams/:id/test',
  config: { scopes: ['update:event_streams'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], params: EventStreamParams, body: TestEventBody, response: { 202: DeliveryResponse } },
  handler: async (request, reply) => reply.code(202).send(await streams.test(request.tenant, request.params.id, request.body)),
});
