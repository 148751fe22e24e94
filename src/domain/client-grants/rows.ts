/**
 * The rows of this entity's tables as its store reads and writes them (src/storage/schema.ts maps
 * the tables to them): booleans as integers (0/1), timestamps as ISO-8601 text in UTC, JSON columns
 * as typed values (src/storage/json-columns.ts parses and serialises them).
 */
export interface ClientGrantRow {
  tenant_id: string;
  id: string;
  client_id: string | null;
  audience: string;
  scope: string[];
  organization_usage: string | null;
  allow_any_organization: number | null;
  is_system: number;
  /** `client` (machine-to-machine) or `user`. */
  subject_type: string;
  authorization_details_types: string[];
  allow_all_scopes: number | null;
  default_for: string | null;
  created_at: string;
}
