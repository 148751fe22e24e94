/**
 * Storage of passwordless login codes (only their hash).
 * Implemented by src/storage/kysely/passwordless.ts; the composition root builds one.
 */
import type { PasswordlessCodeRow } from './rows.js';

export interface PasswordlessStore {
  /** Stores `row` as the recipient's one code for the connection, replacing an earlier one (which stops working). One statement. */
  replace(row: Omit<PasswordlessCodeRow, 'used_at' | 'failures'>): Promise<void>;
  /** The recipient's code, in whatever state; undefined when none. */
  find(tenantId: string, connectionId: string, recipient: string): Promise<PasswordlessCodeRow | undefined>;
  /** Counts a wrong try against the code whose hash is `codeHash` (not a newer one); returns the count, 0 when that code is gone. */
  recordFailure(tenantId: string, connectionId: string, recipient: string, codeHash: string): Promise<number>;
  /**
   * Marks the code with hash `codeHash` used at `now` if it is unused,
   * unexpired and has fewer than `maxFailures` wrong tries, in one
   * conditional UPDATE: of two concurrent calls at most one gets true.
   */
  spend(tenantId: string, connectionId: string, recipient: string, codeHash: string, now: string, maxFailures: number): Promise<boolean>;
}
