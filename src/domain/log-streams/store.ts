/**
 * Storage of log streams: their configuration and, per stream, the durable
 * delivery state (a cursor over the tenant's log, attempts, the next attempt,
 * a lease). Implemented by src/storage/kysely/log-streams.ts.
 */
import type { LogStreamRow } from './rows.js';

export type LogStreamChanges = Partial<Pick<LogStreamRow, 'name' | 'status' | 'filters' | 'sink' | 'authorization_enc' | 'attempts' | 'next_attempt_at' | 'last_error'>>;

export interface LogStreamStore {
  list(tenantId: string): Promise<LogStreamRow[]>;
  count(tenantId: string): Promise<number>;
  get(tenantId: string, id: string): Promise<LogStreamRow | undefined>;
  create(row: LogStreamRow): Promise<void>;
  /** The stream after the change, or undefined when there is none. */
  update(tenantId: string, id: string, changes: LogStreamChanges, now: string): Promise<LogStreamRow | undefined>;
  /** True when a stream was deleted. */
  delete(tenantId: string, id: string): Promise<boolean>;
  /** Active streams (of any tenant) whose next attempt is due at `now` and that no live lease holds, at most `limit`. */
  due(now: string, limit: number): Promise<LogStreamRow[]>;
  /**
   * Takes the stream for one delivery round: sets the lease to `owner` until
   * `leaseUntil` if no live lease holds it at `now`; false when another
   * process holds it. Of two processes claiming at once, one wins.
   */
  claim(tenantId: string, id: string, owner: string, now: string, leaseUntil: string): Promise<boolean>;
  /** A batch was delivered: the cursor moves to `cursor`, attempts reset; only while `owner` holds the lease. False otherwise. */
  advance(tenantId: string, id: string, owner: string, cursor: string, now: string): Promise<boolean>;
  /** A failed attempt: attempts, the error and the next attempt recorded, the lease released (if `owner` holds it). */
  failed(tenantId: string, id: string, owner: string, attempts: number, error: string, nextAttemptAt: string): Promise<void>;
  /** Releases the lease `owner` holds. */
  release(tenantId: string, id: string, owner: string): Promise<void>;
}
