import { managementRoute, type ManagementRouteFactory } from '../route.js';
import { DeliveriesQuery, DeliveriesResponse, EventStreamParams } from './schema.js';
import type { EventStreamService } from './service.js';

/** GET /api/v2/event-streams/{id}/deliveries: the stream's failed deliveries, checkpoint pages `{deliveries, next?}`. */
export const listEventDeliveries: ManagementRouteFactory<EventStreamService> = (_ctx, streams) => managementRoute({
  method: 'GET',
  url: '/event-streams/:id/deliveries',
  config: { scopes: ['read:event_streams', 'read:event_deliveries'] },
  schema: { params: EventStreamParams, querystring: DeliveriesQuery, response: { 200: DeliveriesResponse } },
  handler: async (request) => streams.deliveries(request.tenant, request.params.id, request.query),
});
