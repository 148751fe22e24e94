/**
 * Executions written off the request path. The runtime records one execution
 * per trigger run (src/domain/actions-runtime/runtime.ts); written one insert
 * at a time and awaited, that write was most of what an action cost a token
 * request beside the sandbox round trip. Here `record` only buffers the row;
 * a BatchWriter (src/platform/batch-writer.ts) writes the buffer in
 * multi-row inserts every `intervalMs` (250 ms by default), as the tenant
 * logs are written.
 *
 * `get` writes what this process holds first, so GET
 * /api/v2/actions/executions/{id} finds an execution the same process ran a
 * moment before. Another process of a cluster finds it once its own process
 * has flushed (within `intervalMs`): the service's executions are not
 * readable at once either. `close` writes what is left; a process killed
 * without it loses at most `intervalMs` worth of execution records (never a
 * flow's outcome: the records are for reading afterwards).
 */
import type { Logger } from 'pino';
import { BatchWriter } from '../../platform/batch-writer.js';
import type { ActionExecutionRow } from './rows.js';
import type { ActionExecutionStore } from './store.js';

export class BufferedExecutionStore implements ActionExecutionStore {
  private readonly writer: BatchWriter<ActionExecutionRow>;

  constructor(
    private readonly store: ActionExecutionStore,
    logger: Pick<Logger, 'warn'>,
    options: { intervalMs?: number; maxBuffered?: number } = {},
  ) {
    this.writer = new BatchWriter<ActionExecutionRow>({
      write: (rows) => store.recordMany(rows),
      ...options,
      onDrop: ({ reason, count, total }) => logger.warn({ dropped: count, droppedTotal: total, reason }, 'action execution records were dropped'),
      onError: (err) => logger.warn({ err, pending: this.writer.pending }, 'writing action execution records failed; they stay buffered and are tried again'),
    });
  }

  /** Buffers the row; it is written within `intervalMs`. */
  record(row: ActionExecutionRow): Promise<void> {
    this.writer.push(row);
    return Promise.resolve();
  }

  recordMany(rows: readonly ActionExecutionRow[]): Promise<void> {
    for (const row of rows) this.writer.push(row);
    return Promise.resolve();
  }

  async get(tenantId: string, id: string, now: string): Promise<ActionExecutionRow | undefined> {
    await this.writer.flush();
    return this.store.get(tenantId, id, now);
  }

  /** Records waiting to be written. */
  get pending(): number {
    return this.writer.pending;
  }

  flush(): Promise<void> {
    return this.writer.flush();
  }

  close(): Promise<void> {
    return this.writer.close();
  }
}
