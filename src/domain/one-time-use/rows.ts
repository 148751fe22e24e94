/**
 * The rows of this entity's tables as its store reads and writes them (src/storage/schema.ts maps
 * the tables to them): booleans as integers (0/1), timestamps as ISO-8601 text in UTC, JSON columns
 * as typed values (src/storage/json-columns.ts parses and serialises them).
 */
/** A once-usable identifier's hash until it expires (migration 0014). */
export interface OneTimeUseRow {
  tenant_id: string;
  purpose: string;
  key_hash: string;
  expires_at: string;
}
