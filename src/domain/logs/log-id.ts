/**
 * Log event ids: digits, like the service's, that sort as the events were
 * recorded: `900`, the milliseconds of the event (15 digits), an id of the
 * process (12 random digits, drawn at start) and a counter of the process
 * (8 digits). Two processes recording in the same millisecond get distinct
 * ids; within a process the counter keeps the order. Checkpoint paging and
 * the log streams' cursors rely on the order: every id recorded at or after
 * an instant sorts after `logIdFloor` of it.
 */
import { randomInt } from 'node:crypto';

const PROCESS = String(randomInt(0, 1_000_000)).padStart(6, '0') + String(randomInt(0, 1_000_000)).padStart(6, '0');
let counter = 0;

export const LOG_ID_PATTERN = /^900\d{35}$/;

/** The last instant an id was made for, and its `logIdFloor` (events come many to a millisecond under load). */
let lastTime = Number.NaN;
let lastFloor = '';

export function newLogId(now: number): string {
  counter = (counter + 1) % 100_000_000;
  if (now !== lastTime) {
    lastFloor = logIdFloor(now);
    lastTime = now;
  }
  return `${lastFloor}${PROCESS}${String(counter).padStart(8, '0')}`;
}

/** A key below every id recorded at `time` or later, above every one recorded before. */
export function logIdFloor(time: number): string {
  return `900${String(Math.max(0, Math.floor(time))).padStart(15, '0')}`;
}
