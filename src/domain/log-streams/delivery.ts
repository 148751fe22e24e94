/**
 * Delivering the tenant log to log streams (type `http`). The queue is the
 * log itself: each stream has a cursor (the last `log_id` its endpoint
 * accepted), so a restart loses nothing and nothing is copied. A round takes
 * each due, active stream in turn: it claims the stream (a lease, so that of
 * processes sharing the database one sends at a time and no batch goes out
 * twice; a process that dies mid-round leaves it to another once the lease
 * ends), reads up to BATCH events after the cursor (of the types its
 * `filters` name, all when none), POSTs them, and on a 2xx moves the cursor
 * past them; up to MAX_BATCHES_PER_ROUND batches a round. Anything else (an
 * error status, a refused connection, a timeout) leaves the cursor where it
 * was and schedules the next attempt with exponential backoff: 1 s, 2 s,
 * 4 s … capped at 5 minutes, retried for as long as the stream stays active
 * (the events wait in the log until the retention purges them).
 *
 * Events are sent once SETTLE_MS old: each process writes its events in
 * batches (every 250 ms), so an event may reach the table after a later one
 * of another process; a cursor that moved past that later one would skip it.
 * An event written more than SETTLE_MS after it happened (the database was
 * down) is in GET /logs but may be skipped by streams (README).
 *
 * Each event goes out as the service's log stream events do, `{log_id,
 * data}` with `data` the Log shape: JSONLINES one per line, JSONARRAY a JSON
 * array of them, JSONOBJECT one event per request (README). The sink's
 * Authorization header is unsealed for the request only.
 */
import { randomUUID } from 'node:crypto';
import { isoAt } from '../../platform/clock.js';
import { logView, typesOfCategories } from '../logs/events.js';
import { logIdFloor } from '../logs/log-id.js';
import type { LogStreamRow, TenantLogRow } from '../rows.js';
import type { Logger } from 'pino';
import type { LogStreamStore } from './store.js';
import type { TenantLogStore } from '../logs/store.js';
import type { SecretBox } from '../../platform/crypto/secret-box.js';

/** POSTs `body` with `headers`; resolves with the status, rejects when no answer came. */
export type HttpPoster = (url: string, body: string, headers: Record<string, string>) => Promise<number>;

export const BATCH = 100;
export const MAX_BATCHES_PER_ROUND = 5;
export const FIRST_RETRY_MS = 1000;
export const MAX_RETRY_MS = 5 * 60_000;
/** How long a round may hold a stream: longer than MAX_BATCHES_PER_ROUND posts at their timeout. */
export const LEASE_MS = 60_000;
const DUE_LIMIT = 50;
/** How old an event is before streams send it. */
export const SETTLE_MS = 5000;

export function retryDelay(attempts: number): number {
  return Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), MAX_RETRY_MS);
}

/** The sealing context of a stream's Authorization header. */
export function streamAuthorizationContext(tenantId: string, streamId: string): string {
  return `log-stream-authorization:${tenantId}:${streamId}`;
}

/** An event as a log stream sends it. */
export function streamEvent(row: TenantLogRow): { log_id: string; data: Record<string, unknown> } {
  return { log_id: row.log_id, data: logView(row) };
}

export function streamBody(rows: readonly TenantLogRow[], format: LogStreamRow['sink']['httpContentFormat']): string {
  const events = rows.map(streamEvent);
  if (format === 'JSONARRAY') return JSON.stringify(events);
  if (format === 'JSONOBJECT') return JSON.stringify(events[0]);
  return events.map((event) => JSON.stringify(event)).join('\n');
}

export interface StreamRound {
  /** Events accepted by endpoints. */
  delivered: number;
  /** Failed attempts. */
  failed: number;
}

/** What the delivery of log streams touches. */
export interface LogStreamDeliveryContext {
  readonly box: SecretBox;
  readonly logger: Logger;
  readonly now: () => number;
  readonly stores: { readonly logStreams: LogStreamStore; readonly tenantLogs: TenantLogStore };
}

export class LogStreamDelivery {
  constructor(
    private readonly ctx: LogStreamDeliveryContext,
    private readonly post: HttpPoster,
  ) {}

  async runOnce(): Promise<StreamRound> {
    const round: StreamRound = { delivered: 0, failed: 0 };
    const due = await this.ctx.stores.logStreams.due(isoAt(this.ctx.now()), DUE_LIMIT);
    for (const stream of due) {
      const result = await this.deliver(stream);
      round.delivered += result.delivered;
      round.failed += result.failed;
    }
    return round;
  }

  private async deliver(stream: LogStreamRow): Promise<StreamRound> {
    const store = this.ctx.stores.logStreams;
    const owner = randomUUID();
    const now = this.ctx.now();
    const result: StreamRound = { delivered: 0, failed: 0 };
    if (!(await store.claim(stream.tenant_id, stream.id, owner, isoAt(now), isoAt(now + LEASE_MS)))) return result;
    const types = stream.filters.length > 0 ? typesOfCategories(stream.filters.map((f) => f.name)) : undefined;
    const size = stream.sink.httpContentFormat === 'JSONOBJECT' ? 1 : BATCH;
    let cursor = stream.cursor;
    try {
      for (let batch = 0; batch < MAX_BATCHES_PER_ROUND; batch += 1) {
        const rows = await this.ctx.stores.tenantLogs.after(stream.tenant_id, cursor, size, types, logIdFloor(this.ctx.now() - SETTLE_MS));
        if (rows.length === 0) break;
        const error = await this.send(stream, rows);
        if (error !== undefined) {
          const attempts = stream.attempts + 1;
          await store.failed(stream.tenant_id, stream.id, owner, attempts, error, isoAt(this.ctx.now() + retryDelay(attempts)));
          this.ctx.logger.warn({ tenant: stream.tenant_id, stream: stream.id, attempts, error }, 'log stream delivery failed; it will be retried');
          result.failed += 1;
          return result;
        }
        cursor = rows.at(-1)!.log_id;
        // The lease was lost (it ran out and another process took the stream): stop, the other goes on.
        if (!(await store.advance(stream.tenant_id, stream.id, owner, cursor, isoAt(this.ctx.now())))) return result;
        result.delivered += rows.length;
        if (rows.length < size) break;
      }
      await store.release(stream.tenant_id, stream.id, owner);
    } catch (err) {
      // The database failed mid-round: the lease runs out and the stream is retried from its cursor.
      this.ctx.logger.warn({ err, tenant: stream.tenant_id, stream: stream.id }, 'log stream round failed');
    }
    return result;
  }

  /** Undefined when the endpoint accepted the batch; otherwise why not. */
  private async send(stream: LogStreamRow, rows: readonly TenantLogRow[]): Promise<string | undefined> {
    const headers: Record<string, string> = { 'content-type': stream.sink.httpContentType ?? 'application/json' };
    try {
      if (stream.authorization_enc !== null) {
        headers.authorization = this.ctx.box.openString(stream.authorization_enc, streamAuthorizationContext(stream.tenant_id, stream.id));
      }
      const status = await this.post(stream.sink.httpEndpoint, streamBody(rows, stream.sink.httpContentFormat), headers);
      return status >= 200 && status < 300 ? undefined : `HTTP ${status}`;
    } catch (err) {
      return err instanceof Error ? err.message : String(err);
    }
  }
}
