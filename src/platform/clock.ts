/**
 * The one clock every service reads (milliseconds since the epoch): the
 * context's. It is wall time, moved forward by `advance` in tests, so a test
 * crosses an expiry or a window by moving the clock, never by sleeping.
 */
export interface Clock {
  now(): number;
}

export class ProcessClock implements Clock {
  #offset = 0;

  now(): number {
    return Date.now() + this.#offset;
  }

  /** Moves the clock forward (tests). */
  advance(ms: number): void {
    this.#offset += ms;
  }
}

/** An instant (milliseconds since the epoch) as the ISO-8601 UTC text every table stores. */
export function isoAt(ms: number): string {
  return new Date(ms).toISOString();
}
