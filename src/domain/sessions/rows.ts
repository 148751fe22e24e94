/**
 * The rows of this entity's tables as its store reads and writes them (src/storage/schema.ts maps
 * the tables to them): booleans as integers (0/1), timestamps as ISO-8601 text in UTC, JSON columns
 * as typed values (src/storage/json-columns.ts parses and serialises them).
 */
/** Login sessions (migration 0009); only the cookie value's SHA-256 is stored. */
export interface SessionRow {
  tenant_id: string;
  id_hash: string;
  user_id: string;
  /** Seconds since the epoch. */
  auth_time: number;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
  /** The authentication methods of the login, space-separated (`mfa` once a second factor was used; migration 0020). */
  amr: string | null;
  /** When the session last answered a login (single sign-on); null until then (migration 0060). */
  last_interacted_at: string | null;
}
