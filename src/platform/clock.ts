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

/** The second (since the epoch) `isoAt` formatted last, and its text up to the milliseconds (`…T12:34:56.`). */
let isoSecond = Number.NaN;
let isoPrefix = '';
/** The largest instant a Date holds (±). */
const MAX_INSTANT = 8.64e15;

/**
 * An instant (milliseconds since the epoch) as the ISO-8601 UTC text every
 * table stores. `Date#toISOString` costs microseconds, and hot paths (every
 * token, every tenant log event) format instants of the same second over and
 * over: the text of the last second is kept and only the milliseconds added.
 */
export function isoAt(ms: number): string {
  const t = Math.trunc(ms); // as `new Date(ms)` takes it
  const second = Math.floor(t / 1000);
  if (second !== isoSecond) {
    const text = new Date(ms).toISOString(); // throws for an invalid instant, as before
    // The last second of the range of dates is not kept: its later milliseconds are no dates.
    isoSecond = Math.abs(t) < MAX_INSTANT - 1000 ? second : Number.NaN;
    isoPrefix = text.slice(0, -4);
    return text;
  }
  const milli = t - second * 1000;
  return `${isoPrefix}${milli < 10 ? '00' : milli < 100 ? '0' : ''}${milli}Z`;
}
