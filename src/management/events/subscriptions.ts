/**
 * Subscriptions to a tenant's events over Server-Sent Events (GET
 * /api/v2/events): the tenant's event log (src/domain/event-streams/events.ts
 * records every produced event there, in the change's transaction, at the
 * tenant's next position) read from a cursor and written as the service's SSE
 * messages, which the `auth0` SDK's `events.subscribe` reads:
 *
 *     event: user.created
 *     id: <offset>
 *     data: {"offset":"<offset>","event":{…the CloudEvent, a0stream the subscription's id…}}
 *
 * `offset-only` messages (`{"offset"}`) carry the cursor without an event:
 * the first message of every subscription, and after events the
 * `event_type` filter left out; `: heartbeat` comments keep an idle stream
 * open through proxies; an `error` message (`{"error":{code,message,offset}}`)
 * ends a stream that fails or reaches its time limit (`connection_timeout`,
 * after MAX_CONNECTION_MS). An offset is the position sealed for the tenant
 * (the secret box), so it is opaque, cannot be forged, and is refused for
 * another tenant.
 *
 * Bounded: at most `maxPerTenant` open subscriptions per tenant in a process
 * (403 beyond), a write that the client does not drain within
 * DRAIN_TIMEOUT_MS ends the stream, and `closeAll` (the server's preClose)
 * ends every stream with a last offset-only message, so a graceful shutdown
 * never waits on one. Across processes: the log is the database's, so a
 * subscriber in one process reads the events committed by every process
 * sharing it (PostgreSQL), at most one poll interval late; Redis is not used.
 */
import type { ServerResponse } from 'node:http';
import type { EventStreamStore } from '../../domain/event-streams/store.js';
import type { TenantEventRow } from '../../domain/event-streams/rows.js';
import { newEventStreamId } from '../../domain/event-streams/events.js';
import type { SecretBox } from '../../platform/crypto/secret-box.js';
import { ManagementError } from '../../platform/http/errors.js';

/** Events read per poll. */
const BATCH = 100;
/** How long one subscription stays open before it is ended with `connection_timeout` (the client resumes from its offset). */
export const MAX_CONNECTION_MS = 60 * 60 * 1000;
/** How long a write may wait for the client to read before the stream is ended. */
export const DRAIN_TIMEOUT_MS = 30_000;

export interface EventSubscriptionContext {
  readonly box: SecretBox;
  readonly now: () => number;
  readonly config: { readonly eventSubscriptions: { readonly maxPerTenant: number; readonly heartbeatMs: number; readonly pollMs: number } };
  readonly stores: { readonly eventStreams: Pick<EventStreamStore, 'eventsAfter' | 'eventLogBounds' | 'firstEventSince'> };
}

const offsetContext = (tenantId: string) => `events-offset:${tenantId}`;

export function sealOffset(box: SecretBox, tenantId: string, seq: number): string {
  return box.seal(String(seq), offsetContext(tenantId));
}

/** The position an offset names, or the 400 of a cursor that is not one of this tenant's. */
export function openOffset(box: SecretBox, tenantId: string, offset: string): number {
  let seq = NaN;
  try {
    seq = Number(box.openString(offset, offsetContext(tenantId)));
  } catch {
    // Below.
  }
  if (!Number.isSafeInteger(seq) || seq < 0) throw new ManagementError(400, 'Invalid cursor format.', 'invalid_cursor');
  return seq;
}

/** Where a subscription starts: after the position of `from`, at `from_timestamp`, or after the latest event. */
export async function startPosition(ctx: EventSubscriptionContext, tenantId: string, query: { from?: string; from_timestamp?: string }): Promise<number> {
  const bounds = await ctx.stores.eventStreams.eventLogBounds(tenantId);
  if (query.from !== undefined) {
    const seq = openOffset(ctx.box, tenantId, query.from);
    // Every position after the cursor must still be held (positions have no gaps).
    if (seq > bounds.latest) throw new ManagementError(400, 'Invalid cursor format.', 'invalid_cursor');
    if (seq < bounds.latest && (bounds.oldest === undefined || bounds.oldest > seq + 1)) {
      throw new ManagementError(410, 'Cursor points to data no longer available in the stream.', 'cursor_expired');
    }
    return seq;
  }
  if (query.from_timestamp !== undefined) {
    const first = await ctx.stores.eventStreams.firstEventSince(tenantId, new Date(query.from_timestamp).toISOString());
    return first === undefined ? bounds.latest : first - 1;
  }
  return bounds.latest;
}

export interface Subscription {
  readonly tenantId: string;
  ended: boolean;
  wake?: () => void;
  end(): void;
}

export class EventSubscriptions {
  readonly #open = new Map<string, Set<Subscription>>();
  #closing = false;

  constructor(private readonly ctx: EventSubscriptionContext) {}

  /**
   * Takes one of the tenant's subscription slots, or refuses with 403 when
   * the tenant has its maximum open already (503 while the server closes).
   * Synchronous, so that two requests cannot both take the last slot.
   */
  reserve(tenantId: string): Subscription {
    if (this.#closing) throw new ManagementError(503, 'Service Unavailable');
    const open = this.#open.get(tenantId) ?? new Set<Subscription>();
    if (open.size >= this.ctx.config.eventSubscriptions.maxPerTenant) {
      throw new ManagementError(403, 'Maximum concurrent event stream connections reached. Please close existing connections.', 'too_many_connections');
    }
    const subscription: Subscription = { tenantId, ended: false, end: () => {
      subscription.ended = true;
      subscription.wake?.();
    } };
    open.add(subscription);
    this.#open.set(tenantId, open);
    return subscription;
  }

  /**
   * Streams the tenant's events after `position` to `res` (headers not yet
   * sent) until the client goes, the server closes, or the time limit; then
   * gives the slot back.
   */
  async stream(subscription: Subscription, position: number, types: ReadonlySet<string> | undefined, res: ServerResponse, headers: Record<string, string>): Promise<void> {
    const { heartbeatMs, pollMs } = this.ctx.config.eventSubscriptions;
    const { tenantId } = subscription;
    let cursor = position;
    const streamId = newEventStreamId();
    const offset = () => sealOffset(this.ctx.box, tenantId, cursor);
    const sleep = (ms: number) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        subscription.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    /** Writes a chunk; false when the stream has ended (the client went or did not read in time). */
    const write = async (chunk: string): Promise<boolean> => {
      if (subscription.ended || res.destroyed) return false;
      if (res.write(chunk)) return true;
      // The client reads it, goes, or is too slow: one of the three, with nothing left listening after.
      const drained = await new Promise<boolean>((resolve) => {
        const settle = (value: boolean) => {
          clearTimeout(timer);
          res.off('drain', onDrain);
          res.off('close', onGone);
          resolve(value);
        };
        const onDrain = () => settle(true);
        const onGone = () => settle(false);
        const timer = setTimeout(onGone, DRAIN_TIMEOUT_MS);
        res.on('drain', onDrain);
        res.on('close', onGone);
      });
      if (!drained) subscription.end();
      return drained && !subscription.ended;
    };
    const message = (event: string, data: unknown, id?: string) => `event: ${event}\n${id ? `id: ${id}\n` : ''}data: ${JSON.stringify(data)}\n\n`;
    // The response's close: the client went (the request's own close only says its body was read).
    const onClose = () => subscription.end();
    res.on('close', onClose);
    const started = this.ctx.now();
    try {
      res.writeHead(200, { ...headers, 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-accel-buffering': 'no' });
      await write(message('offset-only', { offset: offset() }));
      let lastWrite = Date.now();
      while (!subscription.ended && !this.#closing) {
        let batch: TenantEventRow[];
        try {
          batch = await this.ctx.stores.eventStreams.eventsAfter(tenantId, cursor, BATCH);
        } catch {
          await write(message('error', { error: { code: 'processing_error', message: 'The events could not be read.', offset: offset() } }));
          break;
        }
        let skipped = false;
        for (const row of batch) {
          if (subscription.ended) break;
          cursor = row.seq;
          if (types && !types.has(row.type)) {
            skipped = true;
            continue;
          }
          skipped = false;
          const at = offset();
          if (!(await write(message(row.type, { offset: at, event: { ...row.event, a0stream: streamId } }, at)))) break;
          lastWrite = Date.now();
        }
        if (skipped && (await write(message('offset-only', { offset: offset() })))) lastWrite = Date.now();
        if (batch.length === BATCH) continue;
        if (this.ctx.now() - started >= MAX_CONNECTION_MS) {
          await write(message('error', { error: { code: 'connection_timeout', message: 'The connection reached its time limit; resume from the offset.', offset: offset() } }));
          break;
        }
        if (Date.now() - lastWrite >= heartbeatMs) {
          if (!(await write(': heartbeat\n\n'))) break;
          lastWrite = Date.now();
        }
        await sleep(Math.min(pollMs, heartbeatMs));
      }
      // The server is closing: the client resumes from here.
      if (this.#closing && !res.destroyed) res.write(message('offset-only', { offset: offset() }));
    } finally {
      res.off('close', onClose);
      const open = this.#open.get(tenantId);
      open?.delete(subscription);
      if (open?.size === 0) this.#open.delete(tenantId);
      if (!res.destroyed) res.end();
    }
  }

  /** Ends every open subscription (the server is closing); new ones are refused. */
  closeAll(): void {
    this.#closing = true;
    for (const open of this.#open.values()) for (const subscription of open) subscription.end();
  }
}
