/**
 * The rows of this entity's tables as its store reads and writes them (src/storage/schema.ts maps
 * the tables to them): booleans as integers (0/1), timestamps as ISO-8601 text in UTC, JSON columns
 * as typed values (src/storage/json-columns.ts parses and serialises them).
 */
import type { JsonObject } from '../json.js';

/** A scope an API defines. */
export interface ResourceServerScope {
  value: string;
  description?: string;
}

export interface ResourceServerRow {
  tenant_id: string;
  id: string;
  identifier: string;
  name: string;
  is_system: number;
  scopes: ResourceServerScope[];
  signing_alg: string;
  signing_secret_enc: string | null;
  token_lifetime: number;
  token_lifetime_for_web: number;
  allow_offline_access: number;
  skip_consent_for_verifiable_first_party_clients: number;
  enforce_policies: number;
  token_dialect: string;
  /** The remaining, rarely used members (token_encryption, proof_of_possession, …). */
  options: JsonObject;
  created_at: string;
  updated_at: string;
}
