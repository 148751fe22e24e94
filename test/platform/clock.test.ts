/**
 * `isoAt` (which keeps the text of the last second it formatted) gives the
 * same text as `Date#toISOString` for every instant: within a second, across
 * second boundaries, going back in time, fractional and before-1970 instants;
 * an invalid instant is refused as before.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isoAt } from '../../src/platform/clock.js';

describe('isoAt', () => {
  it('formats every instant as Date#toISOString does, whatever came before', () => {
    const base = Date.parse('2026-03-01T23:59:58.990Z');
    const instants: number[] = [];
    for (let i = 0; i < 3000; i += 7) instants.push(base + i);
    instants.push(base + 5, base - 86_400_000, base + 1.9, base + 1010.5, 0, -1, -999, -1000, -1001, -0.5, 1e12 + 0.999, 8.64e15, base);
    for (const ms of instants) assert.equal(isoAt(ms), new Date(ms).toISOString(), `instant ${ms}`);
    // the same instants again, in reverse (each second comes back after another)
    for (const ms of instants.reverse()) assert.equal(isoAt(ms), new Date(ms).toISOString(), `instant ${ms}`);
  });

  it('refuses an instant that is no date, even right after a valid one', () => {
    isoAt(Date.parse('2026-03-01T00:00:00.000Z'));
    assert.throws(() => isoAt(Number.NaN), RangeError);
    assert.throws(() => isoAt(8.64e15 + 1), RangeError);
    assert.equal(isoAt(8.64e15 - 500), new Date(8.64e15 - 500).toISOString());
    assert.throws(() => isoAt(8.64e15 + 500), RangeError, 'the last second of dates is not taken for a longer one');
  });
});
