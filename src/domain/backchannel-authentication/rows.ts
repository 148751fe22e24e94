/**
 * The rows of this entity's tables as its store reads and writes them (src/storage/schema.ts maps
 * the tables to them): booleans as integers (0/1), timestamps as ISO-8601 text in UTC, JSON columns
 * as typed values (src/storage/json-columns.ts parses and serialises them).
 */
/** CIBA requests (migration 0043); the auth_req_id and the approval ticket kept as their SHA-256. */
export interface BackchannelAuthRequestRow {
  tenant_id: string;
  /** `bcr_…` */
  id: string;
  auth_req_id_hash: string;
  ticket_hash: string;
  client_id: string;
  user_id: string;
  scope: string;
  audience: string | null;
  binding_message: string;
  status: 'pending' | 'approved' | 'denied';
  /** Seconds between polls. */
  interval: number;
  created_at: string;
  expires_at: string;
  /** When the user approved or denied (the tokens' `auth_time`). */
  decided_at: string | null;
  last_polled_at: string | null;
  used_at: string | null;
}
