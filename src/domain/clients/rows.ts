/**
 * The rows of this entity's tables as its store reads and writes them (src/storage/schema.ts maps
 * the tables to them): booleans as integers (0/1), timestamps as ISO-8601 text in UTC, JSON columns
 * as typed values (src/storage/json-columns.ts parses and serialises them).
 */
import type { JsonObject } from '../json.js';

/** A client's configuration members other than its own columns, as the Management API returns them. */
export type ClientConfig = JsonObject;

/** `client_authentication_methods`: each method and the credentials it uses. */
export type ClientAuthenticationMethods = Record<string, { credentials?: { id: string }[] } | null | undefined>;

export interface ClientRow {
  tenant_id: string;
  client_id: string;
  name: string;
  description: string;
  app_type: string | null;
  is_first_party: number;
  global: number;
  token_endpoint_auth_method: string;
  client_authentication_methods: ClientAuthenticationMethods | null;
  grant_types: string[];
  /** Sealed with the master key (context `client_secret:<tenant_id>:<client_id>`). */
  client_secret_enc: string | null;
  created_at: string;
  updated_at: string;
  external_client_id: string | null;
  /** Every other member of the client as the Management API returns it. */
  config: ClientConfig;
}

export interface ClientCountRow {
  tenant_id: string;
  global: number;
  is_first_party: number;
  /** '' when the client has no app_type. */
  app_type: string;
  n: number;
}
