/**
 * The rows of this entity's tables as its store reads and writes them (src/storage/schema.ts maps
 * the tables to them): booleans as integers (0/1), timestamps as ISO-8601 text in UTC, JSON columns
 * as typed values (src/storage/json-columns.ts parses and serialises them).
 */
/** A SAML service provider an SSO session answered (migration 0030). */
export interface SamlpParticipantRow {
  tenant_id: string;
  session_hash: string;
  client_id: string;
  name_id: string;
  name_id_format: string;
  session_index: string;
  created_at: string;
}
