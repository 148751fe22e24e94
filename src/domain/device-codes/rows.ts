/**
 * The rows of this entity's tables as its store reads and writes them (src/storage/schema.ts maps
 * the tables to them): booleans as integers (0/1), timestamps as ISO-8601 text in UTC, JSON columns
 * as typed values (src/storage/json-columns.ts parses and serialises them).
 */
/** Device authorization requests (migration 0041, RFC 8628); codes kept as their SHA-256. */
export interface DeviceCodeRow {
  tenant_id: string;
  /** `dev_…`: the request's id, carried by the /activate pages (never a secret). */
  id: string;
  device_code_hash: string;
  user_code_hash: string;
  client_id: string;
  scope: string | null;
  audience: string | null;
  status: 'pending' | 'approved' | 'denied';
  /** Set on approval: the login that approved it. */
  user_id: string | null;
  session_id: string | null;
  auth_time: number | null;
  organization_id: string | null;
  /** Seconds between polls. */
  interval: number;
  created_at: string;
  expires_at: string;
  last_polled_at: string | null;
  expiry_reported: number;
  used_at: string | null;
}
