/**
 * The rows of this entity's tables as its store reads and writes them (src/storage/schema.ts maps
 * the tables to them): booleans as integers (0/1), timestamps as ISO-8601 text in UTC, JSON columns
 * as typed values (src/storage/json-columns.ts parses and serialises them).
 */
/** Users' consent grants (migration 0010): one per user, client and audience. */
export interface ConsentGrantRow {
  tenant_id: string;
  id: string;
  user_id: string;
  client_id: string;
  audience: string;
  scope: string[];
  created_at: string;
  updated_at: string;
}
