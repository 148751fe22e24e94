/**
 * The events of event streams and how a change records one. The event types
 * are the service's (`EventStreamEventTypeEnum` of its OpenAPI document);
 * Gatehouse produces those of PRODUCED_EVENT_TYPES, where the change is made:
 * users created, updated and deleted through the Management API and SCIM,
 * and created by signup; organizations created, updated and deleted and their members
 * added and removed through the Management API. A stream may subscribe to
 * the others (they are the service's), and hears of them only as test events.
 *
 * An event is recorded in the transaction of its change (`recordEvent` takes
 * the transaction's stores): one outbox row per enabled stream subscribed to
 * its type, so an event exists exactly when its change committed, and a
 * crash after the commit loses nothing (src/domain/event-streams/delivery.ts
 * sends it later).
 *
 * Each event goes out as a CloudEvent (CloudEvents 1.0, JSON), as the service
 * sends them: `specversion`, `id` (`evt_…`), `type`, `source`
 * (`urn:auth0:<the tenant's domain>`), `time`, `data: {object}` (the user or
 * organization as the Management API shows it; for a deletion, its id), and
 * the service's extension attributes `a0tenant` (the tenant's name),
 * `a0stream` (the stream's id) and, on test events only, `a0purpose: test`.
 */
import { isoAt } from '../../platform/clock.js';
import { newPrefixedId } from '../../platform/crypto/ids.js';
import type { CloudEvent, EventDeliveryRow, EventStreamRow, LoggedCloudEvent } from './rows.js';
import type { EventStreamStore } from './store.js';

export const EVENT_TYPES = [
  'group.created', 'group.deleted', 'group.member.added', 'group.member.deleted', 'group.role.assigned', 'group.role.deleted', 'group.updated',
  'organization.connection.added', 'organization.connection.removed', 'organization.connection.updated', 'organization.created',
  'organization.deleted', 'organization.group.role.assigned', 'organization.group.role.deleted', 'organization.member.added',
  'organization.member.deleted', 'organization.member.role.assigned', 'organization.member.role.deleted', 'organization.updated',
  'user.created', 'user.deleted', 'user.updated',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** The types Gatehouse records when their change happens. */
export const PRODUCED_EVENT_TYPES: readonly EventType[] = [
  'user.created', 'user.updated', 'user.deleted',
  'organization.created', 'organization.updated', 'organization.deleted', 'organization.member.added', 'organization.member.deleted',
];

/**
 * How long the tenant's event log keeps an event for GET /api/v2/events
 * (`from`, `from_timestamp`): 24 hours, after which the hourly purge deletes
 * it within a day (src/storage/purge.ts).
 */
export const EVENT_LOG_RETENTION_MS = 24 * 60 * 60 * 1000;

/** Event and stream ids: the prefix and 22 alphanumerics, 26 characters as the document's formats say. */
export const newEventId = (): string => newPrefixedId('evt', 22);
export const newEventStreamId = (): string => newPrefixedId('est', 22);

/** The tenant an event is about, as its CloudEvent names it. */
export interface EventTenant {
  readonly id: string;
  readonly name: string;
  readonly domain: string;
}

/** What recording an event touches: the stores of the change's transaction. */
export interface EventRecording {
  readonly eventStreams: EventStreamStore;
}

/** An event as a CloudEvent, before a stream (or a subscription to GET /api/v2/events) adds its `a0stream`. */
export function cloudEventFor(tenant: EventTenant, event: { id: string; type: string; object: Record<string, unknown>; test?: boolean }, now: number): LoggedCloudEvent {
  return {
    specversion: '1.0',
    id: event.id,
    type: event.type,
    source: `urn:auth0:${tenant.domain}`,
    time: isoAt(now),
    data: { object: event.object },
    a0tenant: tenant.name,
    ...(event.test === true && { a0purpose: 'test' as const }),
  };
}

/** The outbox row of one event for one stream. */
export function deliveryFor(stream: EventStreamRow, tenant: EventTenant, event: { id: string; type: string; object: Record<string, unknown>; test?: boolean }, now: number): EventDeliveryRow {
  const time = isoAt(now);
  const { a0purpose, ...rest } = cloudEventFor(tenant, event, now);
  // Members in the order streams have always received them: a0stream before a0purpose.
  const cloudEvent: CloudEvent = { ...rest, a0stream: stream.id, ...(a0purpose && { a0purpose }) };
  return {
    id: newPrefixedId('del', 22),
    tenant_id: tenant.id,
    stream_id: stream.id,
    event_id: event.id,
    event_type: event.type,
    event: cloudEvent,
    status: 'pending',
    attempts: 0,
    attempt_log: [],
    next_attempt_at: time,
    created_at: time,
    delivered_at: null,
  };
}

/**
 * Records an event of `type` about `object`: in the tenant's event log (at
 * its next position, for GET /api/v2/events) and for every enabled stream of
 * the tenant subscribed to it; call it with the stores of the change's
 * transaction. Returns the event's id.
 */
export async function recordEvent(stores: EventRecording, tenant: EventTenant, type: EventType, object: Record<string, unknown>, now: number): Promise<string> {
  const event = { id: newEventId(), type, object };
  // The tenant's event log, read by GET /api/v2/events: every produced event, subscribed to or not.
  const logged = cloudEventFor(tenant, event, now);
  await stores.eventStreams.appendEvent({ tenant_id: tenant.id, id: event.id, type, event: logged, created_at: logged.time, expires_at: isoAt(now + EVENT_LOG_RETENTION_MS) });
  const streams = await stores.eventStreams.subscribers(tenant.id, type);
  if (streams.length > 0) await stores.eventStreams.enqueue(streams.map((stream) => deliveryFor(stream, tenant, event, now)));
  return event.id;
}
