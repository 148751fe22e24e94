/**
 * The rows of this entity's tables as its store reads and writes them (src/storage/schema.ts maps
 * the tables to them): booleans as integers (0/1), timestamps as ISO-8601 text in UTC, JSON columns
 * as typed values (src/storage/json-columns.ts parses and serialises them).
 */
import type { JsonObject } from '../json.js';

/** The tenant's mail provider (migration 0056): SMTP credentials sealed as one JSON object; booleans as 0/1. */
export interface EmailProviderRow {
  tenant_id: string;
  name: string;
  enabled: number;
  default_from_address: string | null;
  /** Sealed JSON of the credentials (smtp_host, smtp_port, smtp_user, smtp_pass). */
  credentials_enc: string;
  settings: JsonObject | null;
  created_at: string;
  updated_at: string;
}

/** A tenant's email template (migration 0056); booleans as 0/1. */
export interface EmailTemplateRow {
  tenant_id: string;
  template: string;
  body: string | null;
  from: string | null;
  subject: string | null;
  syntax: string | null;
  result_url: string | null;
  url_lifetime_in_seconds: number | null;
  include_email_in_redirect: number;
  enabled: number | null;
  created_at: string;
  updated_at: string;
}
