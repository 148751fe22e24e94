/**
 * Writes items in batches off the request path: `push` only appends to an
 * in-memory buffer; a timer (every `intervalMs`) or a full batch
 * (`maxBatch` items) starts a flush that hands the buffer to `write` in
 * batches of at most `maxBatch` (one multi-row insert each, all or nothing).
 * One flush runs at a time.
 *
 * A failed write is one of two kinds, told apart by `refused(error)`:
 *
 * - the destination refused the items (a constraint, a value a column does
 *   not take): the batch is split in halves, each written on its own, until
 *   the refused items are alone; those are dropped, counted and reported
 *   (`onDrop` with reason `refused`), and every other item is written. A bad
 *   item costs about log2(maxBatch) extra writes and never blocks the ones
 *   after it;
 * - anything else (the database down or busy): the batch goes back to the
 *   head of the buffer and the next flush waits `intervalMs` doubled per
 *   consecutive failure up to `maxBackoffMs` (`onError` is told each time); a
 *   full batch does not start a flush while backing off.
 *
 * The buffer is bounded: past `maxBuffered` items (a long outage) the oldest
 * are dropped (reason `buffer_full`). Both ways of choosing lose the same
 * number of items; the newest are kept because they tell what is happening
 * now, and the oldest ones of an outage are the ones an operator can least
 * act on. `close` stops the timer and flushes what is left (once; later
 * pushes are ignored); what it could not write is reported (reason
 * `shutdown`). A process killed without `close` loses what it held (at most
 * `intervalMs` worth of items in normal operation).
 *
 * Drops are reported once per flush per reason, with the count and the
 * running total, never the items themselves.
 */
export type DropReason = 'buffer_full' | 'refused' | 'shutdown';

export interface BatchWriterOptions<T> {
  /** Writes one batch, all or nothing; rejects when nothing of it was written. */
  write(items: readonly T[]): Promise<void>;
  /** Whether a failed write's error says the items are at fault (split and drop), not the destination (keep and retry). Default: never. */
  refused?(error: unknown): boolean;
  intervalMs?: number;
  maxBatch?: number;
  maxBuffered?: number;
  /** Longest wait between retries while writes fail (default 30 s). */
  maxBackoffMs?: number;
  /** `count` items were dropped for `reason` (total so far for that reason: `total`); `error` is the refusal's. */
  onDrop?(drop: { reason: DropReason; count: number; total: number; error?: unknown }): void;
  /** A batch could not be written and stays buffered. */
  onError?(error: unknown): void;
}

export class BatchWriter<T> {
  private buffer: T[] = [];
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  private closed = false;
  /** Consecutive flushes that ended in a failed write (the backoff's exponent). */
  private failures = 0;
  private readonly unreported = new Map<DropReason, { count: number; error?: unknown }>();
  /** Items dropped since start, by reason. */
  readonly dropped: Record<DropReason, number> = { buffer_full: 0, refused: 0, shutdown: 0 };
  /** Items written since start. */
  written = 0;
  readonly intervalMs: number;
  readonly maxBatch: number;
  readonly maxBuffered: number;
  readonly maxBackoffMs: number;

  constructor(private readonly options: BatchWriterOptions<T>) {
    this.intervalMs = options.intervalMs ?? 250;
    this.maxBatch = options.maxBatch ?? 500;
    this.maxBuffered = options.maxBuffered ?? 50_000;
    this.maxBackoffMs = Math.max(this.intervalMs, options.maxBackoffMs ?? 30_000);
  }

  /** Items waiting to be written. */
  get pending(): number {
    return this.buffer.length;
  }

  push(item: T): void {
    if (this.closed) return;
    this.buffer.push(item);
    this.bound();
    if (this.buffer.length >= this.maxBatch && !this.flushing && this.failures === 0) {
      void this.flush();
    } else {
      this.schedule(this.intervalMs);
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
      const kept = await this.writeSplitting(batch);
      if (kept.length > 0) {
        // Back at the head, oldest first; the bound then drops the oldest if items came in meanwhile.
        this.buffer.unshift(...kept);
        this.bound();
        this.failures += 1;
        this.report();
        this.schedule(Math.min(this.maxBackoffMs, this.intervalMs * 2 ** Math.min(this.failures, 20)));
        return;
      }
      this.failures = 0;
    }
    this.report();
  }

  /**
   * Writes the batch; when the destination refuses it, writes each half on
   * its own, down to single items, which are dropped. Answers the items not
   * written because a write failed otherwise (in order), to be kept.
   */
  private async writeSplitting(batch: readonly T[]): Promise<readonly T[]> {
    try {
      await this.options.write(batch);
      this.written += batch.length;
      return [];
    } catch (error) {
      if (!this.options.refused?.(error)) {
        this.options.onError?.(error);
        return batch;
      }
      if (batch.length === 1) {
        this.drop('refused', 1, error);
        return [];
      }
      const middle = Math.ceil(batch.length / 2);
      const first = await this.writeSplitting(batch.slice(0, middle));
      if (first.length > 0) return [...first, ...batch.slice(middle)];
      return this.writeSplitting(batch.slice(middle));
    }
  }

  private bound(): void {
    if (this.buffer.length <= this.maxBuffered) return;
    const excess = this.buffer.length - this.maxBuffered;
    this.buffer.splice(0, excess);
    this.drop('buffer_full', excess);
  }

  private drop(reason: DropReason, count: number, error?: unknown): void {
    this.dropped[reason] += count;
    const entry = this.unreported.get(reason);
    this.unreported.set(reason, { count: (entry?.count ?? 0) + count, ...(error !== undefined ? { error } : entry?.error !== undefined && { error: entry.error }) });
  }

  private schedule(delayMs: number): void {
    if (this.timer || this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, delayMs);
    this.timer.unref();
  }

  private report(): void {
    for (const [reason, { count, error }] of this.unreported) {
      this.options.onDrop?.({ reason, count, total: this.dropped[reason], ...(error !== undefined && { error }) });
    }
    this.unreported.clear();
  }

  /** Stops the timer and writes what is left; what could not be written is dropped and reported. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.flush();
    if (this.buffer.length > 0) {
      this.drop('shutdown', this.buffer.length);
      this.buffer = [];
      this.report();
    }
  }
}
