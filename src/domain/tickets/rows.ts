/**
 * The rows of this entity's tables as its store reads and writes them (src/storage/schema.ts maps
 * the tables to them): booleans as integers (0/1), timestamps as ISO-8601 text in UTC, JSON columns
 * as typed values (src/storage/json-columns.ts parses and serialises them).
 */
/** One-use emailed tickets (migration 0007); only the ticket's SHA-256 is stored. */
export interface TicketRow {
  tenant_id: string;
  id_hash: string;
  kind: 'email_verification' | 'password_reset';
  user_id: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  /** Tickets of the Management API (migration 0071): where the page sends the browser once the ticket is used. */
  result_url?: string | null;
  /** 1/0: a password change also verifies the address; NULL (emailed tickets): it does. */
  mark_email_verified?: number | null;
  /** 1: the address is added to result_url (`email=`). */
  include_email?: number | null;
}
