import { managementRoute, NoContent, type ManagementRouteFactory } from '../route.js';
import { EventParams } from './schema.js';
import type { EventStreamService } from './service.js';

/** POST /api/v2/event-streams/{id}/redeliver/{event_id} → 202: the event's failed delivery is due again. */
export const redeliverEvent: ManagementRouteFactory<EventStreamService> = (_ctx, streams) => managementRoute({
  method: 'POST',
  url: '/event-streams/:id/redeliver/:event_id',
  config: { scopes: ['update:event_deliveries'] },
  schema: { params: EventParams, response: { 202: NoContent } },
  handler: async (request, reply) => {
    await streams.redeliverOne(request.tenant, request.params.id, request.params.event_id);
    return reply.code(202).send();
  },
});
