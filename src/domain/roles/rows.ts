/**
 * The rows of this entity's tables as its store reads and writes them (src/storage/schema.ts maps
 * the tables to them): booleans as integers (0/1), timestamps as ISO-8601 text in UTC, JSON columns
 * as typed values (src/storage/json-columns.ts parses and serialises them).
 */
export interface RoleRow {
  tenant_id: string;
  id: string;
  name: string;
  /** null when the role was created without one (the service then returns null). */
  description: string | null;
  created_at: string;
}
