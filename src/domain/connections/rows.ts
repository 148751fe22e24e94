/**
 * The rows of this entity's tables as its store reads and writes them (src/storage/schema.ts maps
 * the tables to them): booleans as integers (0/1), timestamps as ISO-8601 text in UTC, JSON columns
 * as typed values (src/storage/json-columns.ts parses and serialises them).
 */
import type { JsonObject } from '../json.js';

export interface ConnectionRow {
  tenant_id: string;
  id: string;
  name: string;
  display_name: string | null;
  strategy: string;
  options: JsonObject;
  is_domain_connection: number;
  /** Enterprise connections: 1 when the login page shows a button for it; null while never set (false). */
  show_as_button?: number | null;
  realms: string[];
  metadata: Record<string, string | null>;
  created_at: string;
  updated_at: string;
}

export interface ConnectionClientRow {
  tenant_id: string;
  connection_id: string;
  client_id: string;
}
