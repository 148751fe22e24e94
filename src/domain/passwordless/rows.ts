/**
 * The rows of this entity's tables as its store reads and writes them (src/storage/schema.ts maps
 * the tables to them): booleans as integers (0/1), timestamps as ISO-8601 text in UTC, JSON columns
 * as typed values (src/storage/json-columns.ts parses and serialises them).
 */
/** A passwordless login code (migration 0021): one live code per connection and recipient, as SHA-256. */
export interface PasswordlessCodeRow {
  tenant_id: string;
  connection_id: string;
  /** The lower-cased email address (or phone number) the code was sent to. */
  recipient: string;
  client_id: string;
  code_hash: string;
  failures: number;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}
