import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../route.js';
import { EventStreamParams, RedeliverBody, RedeliverResponse } from './schema.js';
import type { EventStreamService } from './service.js';

/** POST /api/v2/event-streams/{id}/redeliver → 202: the stream's failed deliveries matching the filter are due again. */
export const redeliverEvents: ManagementRouteFactory<EventStreamService> = (_ctx, streams) => managementRoute({
  method: 'POST',
  url: '/event-streams/:id/redeliver',
  config: { scopes: ['update:event_deliveries'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], params: EventStreamParams, body: RedeliverBody, response: { 202: RedeliverResponse } },
  handler: async (request, reply) => reply.code(202).send(await streams.redeliver(request.tenant, request.params.id, request.body ?? {})),
});
