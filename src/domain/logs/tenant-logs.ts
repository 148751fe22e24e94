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
import { BatchWriter } from '../../platform/batch-writer.js';
import { isoAt } from '../../platform/clock.js';
import type { TenantLogRow } from '../rows.js';
import { LOG_TYPES, cleanDetails, cut, type LogEvent } from './events.js';
import { newLogId } from './log-id.js';
import type { TenantLogStore } from './store.js';

export interface TenantLogs {
  readonly enabled: boolean;
  /** Queues the event of the tenant; returns at once. */
  record(tenantId: string, event: LogEvent): void;
  /** Writes every queued event now (tests, and close). */
  flush(): Promise<void>;
  /** Flushes and stops. */
  close(): Promise<void>;
}

export const DISABLED_TENANT_LOGS: TenantLogs = {
  enabled: false,
  record() {},
  flush: async () => undefined,
  close: async () => undefined,
};

export interface BufferOptions {
  intervalMs?: number;
  maxBatch?: number;
  /** Events held while the database does not take them; beyond, the oldest are dropped (counted, warned). */
  maxBuffered?: number;
}

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

export class BufferedTenantLogs implements TenantLogs {
  readonly enabled = true;
  private readonly writer: BatchWriter<TenantLogRow>;

  constructor(
    store: Pick<TenantLogStore, 'insertMany'>,
    private readonly now: () => number,
    logger: Pick<Logger, 'warn'>,
    options: BufferOptions = {},
  ) {
    this.writer = new BatchWriter<TenantLogRow>({
      write: (rows) => store.insertMany(rows),
      ...options,
      onDrop: (count, total) => logger.warn({ dropped: count, droppedTotal: total }, 'tenant log events dropped: the buffer is full (is the database down?)'),
      onError: (err) => logger.warn({ err, pending: this.writer.pending }, 'writing tenant log events failed; they stay buffered'),
    });
  }

  /** Events dropped since start because the buffer was full. */
  get dropped(): number {
    return this.writer.dropped;
  }

  record(tenantId: string, event: LogEvent): void {
    this.writer.push(toLogRow(tenantId, event, this.now()));
  }

  flush(): Promise<void> {
    return this.writer.flush();
  }

  close(): Promise<void> {
    return this.writer.close();
  }
}
