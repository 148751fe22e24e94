/**
 * Delivering the outbox of event streams (src/domain/event-streams/events.ts
 * writes it). Every process runs rounds; a round claims due deliveries in
 * batches, PIPELINES at once (one statement per batch, under a lease: no two processes send the
 * same row at once, and a process that dies mid-attempt leaves its rows due
 * again once the lease ends), POSTs each event to its stream's webhook with
 * the stream's authorization, at most CONCURRENCY at a time, and records the
 * outcome: a 2xx delivers it; anything else (an error status, a refused or
 * unreachable destination, a timeout) is a failed attempt, retried with
 * exponential backoff, 5 s, 10 s, 20 s … capped at an hour, at most
 * MAX_ATTEMPTS attempts (about 8 hours), after which it is `failed` and
 * waits for a redelivery (POST /event-streams/{id}/redeliver). Delivery is at
 * least once: a process killed after the endpoint accepted an event and
 * before recording it sends it again; receivers tell repeats by the event's
 * `id`. Order is not kept across retries.
 *
 * The destination goes through the outbound guard of the poster
 * (src/platform/http/form-poster.ts): https only, public addresses unless
 * GATEHOUSE_OUTBOUND_ALLOW lists the range; a refusal is a failed attempt
 * whose message says so.
 */
import type { Logger } from 'pino';
import { isoAt } from '../../platform/clock.js';
import type { SecretBox } from '../../platform/crypto/secret-box.js';
import type { EventDeliveryAttempt, EventDeliveryRow, EventStreamRow } from './rows.js';
import type { EventStreamStore } from './store.js';

/** POSTs `body` with `headers`; resolves with the status, rejects when no answer came. */
export type EventPoster = (url: string, body: string, headers: Record<string, string>) => Promise<number>;

export const FIRST_RETRY_MS = 5000;
export const MAX_RETRY_MS = 3_600_000;
export const MAX_ATTEMPTS = 18;
/** Deliveries claimed at once; a process killed mid-batch leaves them to be sent again (at least once). */
export const BATCH = 64;
/** Posts in flight per batch. */
export const CONCURRENCY = 32;
/** Batches under way at once in a round. */
export const PIPELINES = 3;

/** How long a claimed batch is held: longer than its posts can take at `timeoutMs` each, CONCURRENCY at a time. */
export function leaseFor(timeoutMs: number): number {
  return timeoutMs * Math.ceil(BATCH / CONCURRENCY) + 5000;
}
/** The failed attempts a delivery keeps in its history. */
const LOGGED_ATTEMPTS = 10;

export function retryDelay(attempts: number): number {
  return Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), MAX_RETRY_MS);
}

/** The sealing context of a stream's authorization secret. */
export function eventStreamSecretContext(tenantId: string, streamId: string): string {
  return `event-stream-authorization:${tenantId}:${streamId}`;
}

/** The headers a stream's destination is sent with (its secret unsealed for the request only). */
export function destinationHeaders(stream: EventStreamRow, box: SecretBox): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (stream.authorization_enc === null) return headers;
  const secret = box.openString(stream.authorization_enc, eventStreamSecretContext(stream.tenant_id, stream.id));
  const auth = stream.destination.configuration.webhook_authorization;
  if (auth.method === 'bearer') headers.authorization = `Bearer ${secret}`;
  else if (auth.method === 'basic') headers.authorization = `Basic ${Buffer.from(`${auth.username}:${secret}`).toString('base64')}`;
  else headers[auth.header_key.toLowerCase()] = secret;
  return headers;
}

export interface EventRound {
  delivered: number;
  failed: number;
}

/** What the delivery of event streams touches. */
export interface EventStreamDeliveryContext {
  readonly box: SecretBox;
  readonly logger: Logger;
  readonly now: () => number;
  readonly stores: { readonly eventStreams: EventStreamStore };
}

type Outcome = { row: EventDeliveryRow; error?: string };
type Destination = { url: string; headers: Record<string, string> };

export class EventStreamDelivery {
  private readonly leaseMs: number;

  /** `timeoutMs`: the poster's deadline per post, from which the lease of a claimed batch follows. */
  constructor(
    private readonly ctx: EventStreamDeliveryContext,
    private readonly post: EventPoster,
    timeoutMs = 10_000,
  ) {
    this.leaseMs = leaseFor(timeoutMs);
  }

  /**
   * One round: batches of due deliveries until none is left, PIPELINES of
   * them under way at once (one batch's database writes overlap the others'
   * posts).
   */
  async runOnce(): Promise<EventRound> {
    const round: EventRound = { delivered: 0, failed: 0 };
    const streams = new Map<string, Promise<Destination | undefined>>();
    await Promise.all(
      Array.from({ length: PIPELINES }, async () => {
        for (;;) {
          const claimed = await this.batch(streams, round);
          if (claimed < BATCH) return;
        }
      }),
    );
    return round;
  }

  /** Claims, posts and records one batch; returns how many it claimed. */
  private async batch(streams: Map<string, Promise<Destination | undefined>>, round: EventRound): Promise<number> {
    const store = this.ctx.stores.eventStreams;
    const now = this.ctx.now();
    const claimed = await store.claimDue(isoAt(now), isoAt(now + this.leaseMs), BATCH);
    if (claimed.length === 0) return 0;
    const outcomes = await inParallel(claimed, CONCURRENCY, async (row): Promise<Outcome> => {
      const key = `${row.tenant_id}\n${row.stream_id}`;
      let target = streams.get(key);
      if (!target) {
        target = store.get(row.tenant_id, row.stream_id).then((stream) => stream && { url: stream.destination.configuration.webhook_endpoint, headers: destinationHeaders(stream, this.ctx.box) });
        streams.set(key, target);
      }
      try {
        const destination = await target;
        if (!destination) return { row, error: 'the event stream no longer exists' };
        const status = await this.post(destination.url, JSON.stringify(row.event), destination.headers);
        return status >= 200 && status < 300 ? { row } : { row, error: `HTTP ${status}` };
      } catch (err) {
        return { row, error: err instanceof Error ? err.message : String(err) };
      }
    });
    const delivered = outcomes.filter((o) => o.error === undefined).map((o) => o.row.id);
    await store.delivered(delivered, isoAt(this.ctx.now()));
    round.delivered += delivered.length;
    for (const { row, error } of outcomes) {
      if (error === undefined) continue;
      round.failed += 1;
      await this.failed(row, error);
    }
    return claimed.length;
  }

  private async failed(row: EventDeliveryRow, error: string): Promise<void> {
    const later = this.ctx.now();
    const attempts = row.attempts + 1;
    const attempt: EventDeliveryAttempt = { status: 'failed', timestamp: isoAt(later), error_message: error.slice(0, 500) };
    const log = [...row.attempt_log, attempt].slice(-LOGGED_ATTEMPTS);
    const gaveUp = attempts >= MAX_ATTEMPTS;
    await this.ctx.stores.eventStreams.failed(row.id, attempts, log, gaveUp ? null : isoAt(later + retryDelay(attempts)));
    this.ctx.logger.warn({ tenant: row.tenant_id, stream: row.stream_id, event: row.event_id, attempts, error, gaveUp }, 'event stream delivery failed');
  }
}

/** `work` on every item, at most `limit` at a time, results in the items' order. */
async function inParallel<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
