import { managementRoute, NoContent, type ManagementRouteFactory } from '../route.js';
import { EventStreamParams } from './schema.js';
import type { EventStreamService } from './service.js';

/** DELETE /api/v2/event-streams/{id} → 204; the stream's queued deliveries go with it. */
export const deleteEventStream: ManagementRouteFactory<EventStreamService> = (_ctx, streams) => managementRoute({
  method: 'DELETE',
  url: '/event-streams/:id',
  config: { scopes: ['delete:event_streams'] },
  schema: { params: EventStreamParams, response: { 204: NoContent } },
  handler: async (request, reply) => {
    await streams.delete(request.tenant, request.params.id);
    return reply.code(204).send();
  },
});
