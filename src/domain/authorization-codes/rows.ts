/**
 * The rows of this entity's tables as its store reads and writes them (src/storage/schema.ts maps
 * the tables to them): booleans as integers (0/1), timestamps as ISO-8601 text in UTC, JSON columns
 * as typed values (src/storage/json-columns.ts parses and serialises them).
 */
import type { TokenChanges } from '../actions-runtime/triggers/post-login.js';

/** Authorization codes (migration 0009); only the code's SHA-256 is stored. */
export interface AuthorizationCodeRow {
  tenant_id: string;
  code_hash: string;
  client_id: string;
  user_id: string;
  redirect_uri: string | null;
  scope: string | null;
  audience: string | null;
  nonce: string | null;
  code_challenge: string | null;
  code_challenge_method: string | null;
  session_id: string;
  /** Seconds since the epoch. */
  auth_time: number;
  expires_at: string;
  used_at: string | null;
  refresh_family_id: string | null;
  /** The DPoP key the code must be redeemed with (migration 0016); null: unbound. */
  dpop_jkt?: string | null;
  /** The session's `amr` when the code was issued (migration 0020). */
  amr: string | null;
  /** The organization the login was for (migration 0040); null without one. */
  organization_id: string | null;
  /** What the post-login actions changed in the tokens (migration 0120); null or absent: nothing. */
  action_changes?: TokenChanges | null;
}
