/**
 * Storage of pushed authorization requests (RFC 9126).
 * Implemented by src/storage/kysely/pushed-requests.ts; the composition root builds one.
 */
import type { PushedAuthorizationRequestRow } from './rows.js';

export interface PushedRequestStore {
  /** Stores a pushed request. Fails with a unique violation on a taken hash. */
  insert(row: Omit<PushedAuthorizationRequestRow, 'used_at'>): Promise<void>;
  /**
   * Uses the request once: its parameters when it belongs to `clientId`, is
   * unused and has not expired at `now` (ISO), marked used in the same
   * conditional UPDATE, so of two concurrent calls exactly one gets them;
   * undefined otherwise.
   */
  consume(tenantId: string, idHash: string, clientId: string, now: string): Promise<Record<string, string> | undefined>;
}
