/**
 * The rows of this entity's tables as its store reads and writes them (src/storage/schema.ts maps
 * the tables to them): booleans as integers (0/1), timestamps as ISO-8601 text in UTC, JSON columns
 * as typed values (src/storage/json-columns.ts parses and serialises them).
 */
/** Refresh tokens (migration 0008); only the token's SHA-256 is stored. ISO 8601 UTC timestamps. */
export interface RefreshTokenRow {
  tenant_id: string;
  id_hash: string;
  family_id: string;
  client_id: string;
  user_id: string;
  audience: string | null;
  scope: string;
  created_at: string;
  expires_at: string | null;
  idle_expires_at: string | null;
  last_used_at: string;
  rotated_at: string | null;
  revoked_at: string | null;
  /** The DPoP key (JWK thumbprint) a public client's token is bound to (migration 0016); null: unbound. */
  dpop_jkt?: string | null;
  /** The organization the grant was for (migration 0040), kept by every refresh; null without one. */
  organization_id: string | null;
  /**
   * The SSO session whose login started the family (migration 0130), kept by
   * every token of the family; null for grants without one.
   */
  session_id?: string | null;
}

/** A metadata object of the Management API (`refresh_token_metadata`, `session_metadata`): string values. */
export type TokenMetadata = Record<string, string>;

/**
 * A refresh token as the Management API knows it: its family (the id the API
 * gives it, kept across rotations), read from the family's current token.
 */
export interface RefreshTokenFamily {
  family_id: string;
  user_id: string;
  client_id: string;
  audience: string | null;
  scope: string;
  session_id: string | null;
  /** When the family's first token was issued. */
  created_at: string;
  expires_at: string | null;
  idle_expires_at: string | null;
  /** The latest issue or use of a token of the family. */
  last_used_at: string;
  /** Whether a token of the family was exchanged for a successor (rotation). */
  rotated: boolean;
  metadata: TokenMetadata | null;
}
