/**
 * Storage of emailed one-use tickets (only their hash).
 * Implemented by src/storage/kysely/tickets.ts; the composition root builds one.
 */
import type { TicketRow } from './rows.js';

export type TicketKind = TicketRow['kind'];

export interface TicketStore {
  /** Stores a new ticket. Fails with a unique violation on a taken hash, with a foreign-key violation on an unknown user. */
  insert(row: Omit<TicketRow, 'used_at'>): Promise<void>;
  /**
   * The ticket of this kind when it is still usable at `now` (ISO): not used and
   * `expires_at` later than `now`; undefined otherwise. Does not consume it.
   */
  findUsable(tenantId: string, idHash: string, kind: TicketKind, now: string): Promise<TicketRow | undefined>;
  /**
   * Marks the ticket used at `now` if it is still usable, in one conditional
   * UPDATE, so of two concurrent calls exactly one gets the user id; the other
   * (and every later call) gets undefined.
   */
  consume(tenantId: string, idHash: string, kind: TicketKind, now: string): Promise<string | undefined>;
}
