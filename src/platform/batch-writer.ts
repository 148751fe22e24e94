/**
 * Writes items in batches off the request path: `push` only appends to an
 * in-memory buffer; a timer (every `intervalMs`) or a full batch
 * (`maxBatch` items) starts a flush that hands the buffer to `write` in
 * batches of at most `maxBatch` (one multi-row insert each). One flush runs
 * at a time. A failed write keeps its items at the head of the buffer to be
 * tried again on the next flush, so a short database outage loses nothing;
 * past `maxBuffered` items (a long outage) the oldest are dropped, counted in
 * `dropped`, and `onDrop` is told (once per flush that dropped any) so the
 * operator hears of it. `close` stops the timer and flushes what is left.
 *
 * A buffer lives in one process: a process killed without `close` loses
 * what it held (at most `intervalMs` worth of items in normal operation).
 */
export interface BatchWriterOptions<T> {
  /** Writes one batch; rejects when nothing of it was written. */
  write(items: readonly T[]): Promise<void>;
  intervalMs?: number;
  maxBatch?: number;
  maxBuffered?: number;
  /** `count` items were dropped because the buffer was full (total so far: `total`). */
  onDrop?(count: number, total: number): void;
  /** A batch could not be written (it stays buffered). */
  onError?(error: unknown): void;
}

export class BatchWriter<T> {
  private buffer: T[] = [];
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  private closed = false;
  private droppedSinceReport = 0;
  /** Items dropped since start because the buffer was full. */
  dropped = 0;
  readonly intervalMs: number;
  readonly maxBatch: number;
  readonly maxBuffered: number;

  constructor(private readonly options: BatchWriterOptions<T>) {
    this.intervalMs = options.intervalMs ?? 250;
    this.maxBatch = options.maxBatch ?? 500;
    this.maxBuffered = options.maxBuffered ?? 50_000;
  }

  /** Items waiting to be written. */
  get pending(): number {
    return this.buffer.length;
  }

  push(item: T): void {
    if (this.closed) return;
    this.buffer.push(item);
    this.bound();
    if (this.buffer.length >= this.maxBatch && !this.flushing) {
      void this.flush();
    } else if (!this.timer) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        void this.flush();
      }, this.intervalMs);
      this.timer.unref();
    }
  }

  /** Writes everything buffered now (after any flush under way); resolves when done or when a write failed. */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing;
    if (this.buffer.length === 0) return this.report();
    this.flushing = this.drain().finally(() => {
      this.flushing = undefined;
    });
    await this.flushing;
  }

  private async drain(): Promise<void> {
    while (this.buffer.length > 0) {
      const batch = this.buffer.splice(0, this.maxBatch);
      try {
        await this.options.write(batch);
      } catch (error) {
        // Back at the head, oldest first; the bound then drops the oldest if items came in meanwhile.
        this.buffer.unshift(...batch);
        this.bound();
        this.options.onError?.(error);
        this.report();
        this.schedule();
        return;
      }
    }
    this.report();
  }

  private bound(): void {
    if (this.buffer.length <= this.maxBuffered) return;
    const excess = this.buffer.length - this.maxBuffered;
    this.buffer.splice(0, excess);
    this.dropped += excess;
    this.droppedSinceReport += excess;
  }

  private schedule(): void {
    if (this.timer || this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, this.intervalMs);
    this.timer.unref();
  }

  private report(): void {
    if (this.droppedSinceReport === 0) return;
    const count = this.droppedSinceReport;
    this.droppedSinceReport = 0;
    this.options.onDrop?.(count, this.dropped);
  }

  /** Stops the timer and writes what is left (once; later pushes are ignored). */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.flush();
  }
}
