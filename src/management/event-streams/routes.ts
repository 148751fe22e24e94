import type { ManagementRoute } from '../route.js';
import { createEventStream } from './create.js';
import { deleteEventStream } from './delete.js';
import { listEventDeliveries } from './deliveries.js';
import { getEventDelivery } from './delivery.js';
import { getEventStream } from './get.js';
import { listEventStreams } from './list.js';
import { redeliverEvent } from './redeliver-event.js';
import { redeliverEvents } from './redeliver.js';
import { EventStreamService, type EventStreamServiceContext } from './service.js';
import { testEventStream } from './test-event.js';
import { updateEventStream } from './update.js';

/** /api/v2/event-streams */
export function eventStreamRoutes(ctx: EventStreamServiceContext): ManagementRoute[] {
  const streams = new EventStreamService(ctx);
  return [
    listEventStreams, createEventStream, getEventStream, updateEventStream, deleteEventStream,
    listEventDeliveries, getEventDelivery, redeliverEvents, redeliverEvent, testEventStream,
  ].map((route) => route(ctx, streams));
}
