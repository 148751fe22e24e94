import { managementRoute, type ManagementRouteFactory } from '../route.js';
import { DeliveryResponse, EventParams } from './schema.js';
import type { EventStreamService } from './service.js';

/** GET /api/v2/event-streams/{id}/deliveries/{event_id}: the delivery history of one event on the stream. */
export const getEventDelivery: ManagementRouteFactory<EventStreamService> = (_ctx, streams) => managementRoute({
  method: 'GET',
  url: '/event-streams/:id/deliveries/:event_id',
  config: { scopes: ['read:event_deliveries'] },
  schema: { params: EventParams, response: { 200: DeliveryResponse } },
  handler: async (request) => streams.delivery(request.tenant, request.params.id, request.params.event_id),
});
