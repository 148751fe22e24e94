/**
 * The tenant log recorder, the one place events enter the log: `record`
 * stamps an event (`log_id`, `date` from the one clock), bounds and cleans
 * it (./events.ts) and hands it to a batch writer (src/platform/batch-writer.ts),
 * which writes batches to the store off the request path (every 250 ms or 500
 * events, one transaction per batch: src/storage/kysely/tenant-logs.ts).
 * `record` never waits and never throws, so a token request pays for an
 * object and an array push.
 *
 * With GATEHOUSE_TENANT_LOGS=off the recorder is `DISABLED_TENANT_LOGS`: the
 * events are not recorded at all.
 */
import type { Logger } from 'pino';
import { BatchWriter, type DropReason } from '../../platform/batch-writer.js';
import { isoAt } from '../../platform/clock.js';
import type { TenantLogRow } from '../rows.js';
import { LOG_TYPES, cleanDetails, cut, isLogType, type LogEvent } from './events.js';
import { newLogId } from './log-id.js';
import type { TenantLogStore } from './store.js';

export interface TenantLogs {
  readonly enabled: boolean;
  /** Queues the event of the tenant; returns at once. */
  record(tenantId: string, event: LogEvent): void;
  /**
   * Queues the event once it is known (completed by a lookup off the
   * request's path); `flush` and `close` wait for it. A rejected or
   * undefined one records nothing.
   */
  recordWhen(tenantId: string, event: Promise<LogEvent | undefined>): void;
  /** Writes every queued event now (tests, and close). */
  flush(): Promise<void>;
  /** Flushes and stops. */
  close(): Promise<void>;
}

export const DISABLED_TENANT_LOGS: TenantLogs = {
  enabled: false,
  record() {},
  recordWhen() {},
  flush: async () => undefined,
  close: async () => undefined,
};

export interface BufferOptions {
  intervalMs?: number;
  maxBatch?: number;
  /** Events held while the database does not take them; beyond, the oldest are dropped (counted, warned). */
  maxBuffered?: number;
  maxBackoffMs?: number;
  /** `count` events were not written, for `reason` (the metrics' counter). */
  onDropped?(reason: DroppedReason, count: number): void;
  /** An event was taken for writing (the metrics' counter of events produced). */
  onRecorded?(): void;
}

/** Why events were not written: the buffer's (../../platform/batch-writer.ts), or an event without a known type. */
export type DroppedReason = DropReason | 'invalid_type';

export function toLogRow(tenantId: string, event: LogEvent, now: number): TenantLogRow {
  return {
    tenant_id: tenantId,
    log_id: newLogId(now),
    date: isoAt(now),
    type: event.type,
    description: cut(event.description ?? LOG_TYPES[event.type].description, 1024),
    client_id: cut(event.client_id),
    client_name: cut(event.client_name),
    ip: cut(event.ip, 64),
    user_agent: cut(event.user_agent),
    user_id: cut(event.user_id),
    user_name: cut(event.user_name),
    connection: cut(event.connection),
    connection_id: cut(event.connection_id),
    strategy: cut(event.strategy),
    strategy_type: cut(event.strategy_type),
    audience: cut(event.audience),
    scope: cut(event.scope, 2048),
    hostname: cut(event.hostname),
    details: cleanDetails(event.details),
  };
}

const DROP_MESSAGES: Record<DropReason, string> = {
  buffer_full: 'tenant log events dropped: the buffer is full (is the database down?); the oldest went first',
  refused: 'tenant log events dropped: the database refused them (the rest of their batch was written)',
  shutdown: 'tenant log events dropped: they could not be written before the process stopped',
};

export class BufferedTenantLogs implements TenantLogs {
  readonly enabled = true;
  private readonly writer: BatchWriter<TenantLogRow>;
  private invalid = 0;
  /** Events still being completed (recordWhen). */
  private readonly coming = new Set<Promise<void>>();

  constructor(
    store: Pick<TenantLogStore, 'insertMany' | 'refusal'>,
    private readonly now: () => number,
    private readonly logger: Pick<Logger, 'warn' | 'error'>,
    private readonly options: BufferOptions = {},
  ) {
    const { onDropped, ...buffer } = options;
    this.writer = new BatchWriter<TenantLogRow>({
      write: (rows) => store.insertMany(rows),
      refused: (err) => store.refusal(err) !== undefined,
      ...buffer,
      onDrop: ({ reason, count, total, error }) => {
        onDropped?.(reason, count);
        // The refusal's code and schema names only: the error itself may quote a row.
        const refusal = error === undefined ? undefined : store.refusal(error);
        const fields = { dropped: count, droppedTotal: total, reason, ...(refusal && { refusal }) };
        if (reason === 'buffer_full') logger.warn(fields, DROP_MESSAGES[reason]);
        else logger.error(fields, DROP_MESSAGES[reason]);
      },
      onError: (err) => logger.warn({ err, pending: this.writer.pending }, 'writing tenant log events failed; they stay buffered and are tried again'),
    });
  }

  /** Events dropped since start, by reason. */
  get dropped(): Readonly<Record<DroppedReason, number>> {
    return { ...this.writer.dropped, invalid_type: this.invalid };
  }

  /** Events written since start. */
  get written(): number {
    return this.writer.written;
  }

  /** Events waiting to be written. */
  get pending(): number {
    return this.writer.pending;
  }

  record(tenantId: string, event: LogEvent): void {
    // A type not in LOG_TYPES is a mistake of the caller: refused here so it never reaches a batch.
    if (!isLogType(event.type)) {
      this.invalid += 1;
      this.options.onDropped?.('invalid_type', 1);
      const type: unknown = event.type;
      this.logger.error({ type: typeof type === 'string' ? type.slice(0, 32) : typeof type, droppedTotal: this.invalid }, 'a tenant log event without a known type was refused');
      return;
    }
    this.writer.push(toLogRow(tenantId, event, this.now()));
    this.options.onRecorded?.();
  }

  recordWhen(tenantId: string, event: Promise<LogEvent | undefined>): void {
    const settled = event.then(
      (known) => {
        if (known) this.record(tenantId, known);
      },
      (err: unknown) => this.logger.warn({ err }, 'completing a tenant log event failed; it is not recorded'),
    );
    this.coming.add(settled);
    void settled.finally(() => this.coming.delete(settled));
  }

  async flush(): Promise<void> {
    await Promise.all([...this.coming]);
    return this.writer.flush();
  }

  async close(): Promise<void> {
    await Promise.all([...this.coming]);
    return this.writer.close();
  }
}
