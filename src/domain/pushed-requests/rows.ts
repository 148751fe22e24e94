/**
 * The rows of this entity's tables as its store reads and writes them (src/storage/schema.ts maps
 * the tables to them): booleans as integers (0/1), timestamps as ISO-8601 text in UTC, JSON columns
 * as typed values (src/storage/json-columns.ts parses and serialises them).
 */
/** A pushed authorization request (RFC 9126; migration 0015). */
export interface PushedAuthorizationRequestRow {
  tenant_id: string;
  /** SHA-256 of the request_uri's secret part. */
  id_hash: string;
  client_id: string;
  /** The /authorize parameters as pushed. */
  params: Record<string, string>;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}
