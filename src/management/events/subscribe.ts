/**
 * GET /api/v2/events (read:events): the tenant's events as Server-Sent
 * Events (./subscriptions.ts says how they are read and written). Query:
 * `from` (an offset of an earlier message: the stream resumes after it; 400
 * `invalid_cursor` for one that is not the tenant's, 410 `cursor_expired`
 * when the events after it are no longer kept), `from_timestamp` (RFC 3339:
 * the first event at or after it; `from` wins when both are given), and
 * `event_type` (repeated; the document's types, 400 for another). Without
 * either the stream starts after the latest event. 403
 * `too_many_connections` beyond the tenant's open subscriptions.
 */
import { Type } from '@sinclair/typebox';
import { EVENT_TYPES } from '../../domain/event-streams/events.js';
import { ManagementError } from '../../platform/http/errors.js';
import { StringEnum } from '../../platform/http/schema-types.js';
import { managementRoute, type ManagementRoute } from '../route.js';
import { EventSubscriptions, startPosition, type EventSubscriptionContext } from './subscriptions.js';

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

const Query = Type.Object(
  {
    from: Type.Optional(Type.String({ maxLength: 1024, description: 'Opaque token representing position in the stream. If not provided, stream will start from the latest events.' })),
    from_timestamp: Type.Optional(Type.String({ maxLength: 20, description: 'RFC-3339 timestamp indicating where to start streaming events from.' })),
    event_type: Type.Optional(Type.Array(StringEnum(EVENT_TYPES), { description: 'Event type(s) to listen for.' })),
  },
  { additionalProperties: true },
);

export function subscribeEvents(ctx: EventSubscriptionContext): ManagementRoute {
  const subscriptions = new EventSubscriptions(ctx);
  return managementRoute({
    method: 'GET',
    url: '/events',
    config: { scopes: ['read:events'], preClose: () => subscriptions.closeAll() },
    // The 200 is an event stream written by ./subscriptions.ts, not a serialised body.
    schema: { querystring: Query, response: { 200: Type.Unknown() } },
    handler: async (request, reply) => {
      const { tenant, query } = request;
      if (query.from === undefined && query.from_timestamp !== undefined && (!RFC3339.test(query.from_timestamp) || Number.isNaN(Date.parse(query.from_timestamp)))) {
        throw new ManagementError(400, "Query validation error: 'Invalid RFC-3339 timestamp' on property from_timestamp.", 'invalid_query_string');
      }
      const position = await startPosition(ctx, tenant.id, query);
      const subscription = subscriptions.reserve(tenant.id);
      // The rate-limit headers set on the way in go out with the stream's head.
      const headers = Object.fromEntries(Object.entries(reply.getHeaders()).map(([name, value]) => [name, String(value)]));
      reply.hijack();
      await subscriptions.stream(subscription, position, query.event_type && new Set(query.event_type), reply.raw, headers);
      return reply;
    },
  });
}
