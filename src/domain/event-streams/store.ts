/**
 * Storage of event streams: their configuration and the outbox of their
 * deliveries. Implemented by src/storage/kysely/event-streams.ts.
 */
import type { EventDeliveryAttempt, EventDeliveryRow, EventStreamRow, TenantEventRow } from './rows.js';

export type EventStreamChanges = Partial<Pick<EventStreamRow, 'name' | 'status' | 'subscriptions' | 'destination' | 'authorization_enc'>>;

/** Which of a stream's failed deliveries (those with a failed attempt, not delivered since). */
export interface DeliveryFilter {
  eventTypes?: readonly string[];
  /** Created at or after (ISO-8601). */
  from?: string;
  /** Created before (ISO-8601). */
  to?: string;
}

export interface EventStreamStore {
  /** The tenant's streams by id, after `after` when given, at most `limit`. */
  list(tenantId: string, page: { after?: string; limit: number }): Promise<EventStreamRow[]>;
  count(tenantId: string): Promise<number>;
  get(tenantId: string, id: string): Promise<EventStreamRow | undefined>;
  create(row: EventStreamRow): Promise<void>;
  /** The stream after the change, or undefined when there is none. */
  update(tenantId: string, id: string, changes: EventStreamChanges, now: string): Promise<EventStreamRow | undefined>;
  /** True when a stream was deleted (its deliveries go with it). */
  delete(tenantId: string, id: string): Promise<boolean>;
  /** The tenant's enabled streams subscribed to `eventType`. */
  subscribers(tenantId: string, eventType: string): Promise<EventStreamRow[]>;

  /** Queues deliveries (in the caller's transaction: the outbox is written with the change). */
  enqueue(rows: readonly EventDeliveryRow[]): Promise<void>;
  /**
   * Claims up to `limit` pending deliveries (of any tenant) due at `now` on
   * enabled streams, in one statement: their `next_attempt_at` moves to
   * `leaseUntil`, so no other process takes them before then, and a process
   * that dies mid-attempt leaves them due again afterwards. On PostgreSQL rows
   * another process is claiming are skipped (`FOR UPDATE SKIP LOCKED`).
   */
  claimDue(now: string, leaseUntil: string, limit: number): Promise<EventDeliveryRow[]>;
  /** The deliveries were accepted by their endpoints at `now`. */
  delivered(ids: readonly string[], now: string): Promise<void>;
  /** A failed attempt recorded: the next at `nextAttemptAt`, or none (`status: failed`) when null. */
  failed(id: string, attempts: number, log: readonly EventDeliveryAttempt[], nextAttemptAt: string | null): Promise<void>;
  /** The stream's failed deliveries, oldest first, after the delivery id `after`, at most `limit`. */
  failures(tenantId: string, streamId: string, filter: DeliveryFilter, page: { after?: string; limit: number }): Promise<EventDeliveryRow[]>;
  /** The stream's delivery of the event. */
  delivery(tenantId: string, streamId: string, eventId: string): Promise<EventDeliveryRow | undefined>;
  /** Makes the stream's failed deliveries that match due at `now`; returns how many. */
  redeliver(tenantId: string, streamId: string, filter: DeliveryFilter, now: string): Promise<number>;
  /** Makes the stream's delivery of the event due at `now` unless it was delivered; false when there is none to redeliver. */
  redeliverOne(tenantId: string, streamId: string, eventId: string, now: string): Promise<boolean>;

  /**
   * Appends an event to the tenant's event log at the tenant's next
   * position, and returns it. Call it in the transaction of the change (it
   * opens one of its own otherwise): taking the position locks the tenant's
   * counter until that transaction ends, so positions commit in order and
   * without gaps, and a reader never sees position N before N − 1.
   */
  appendEvent(row: Omit<TenantEventRow, 'seq'>): Promise<number>;
  /** The tenant's logged events after position `after`, in order, at most `limit`. */
  eventsAfter(tenantId: string, after: number, limit: number): Promise<TenantEventRow[]>;
  /** The tenant's last position (0 before its first event) and the oldest position the log still holds (undefined when it holds none). */
  eventLogBounds(tenantId: string): Promise<{ latest: number; oldest: number | undefined }>;
  /** The position of the tenant's first logged event created at or after `time` (ISO-8601), or undefined when there is none. */
  firstEventSince(tenantId: string, time: string): Promise<number | undefined>;
}
