/**
 * The rows of this entity's tables as its store reads and writes them (src/storage/schema.ts maps
 * the tables to them): booleans as integers (0/1), timestamps as ISO-8601 text in UTC, JSON columns
 * as typed values (src/storage/json-columns.ts parses and serialises them).
 */
import type { TenantSettings } from './settings.js';

export interface TenantRow {
  id: string;
  name: string;
  domain: string;
  settings: TenantSettings;
  created_at: string;
}
