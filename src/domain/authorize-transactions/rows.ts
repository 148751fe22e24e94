/**
 * The rows of this entity's tables as its store reads and writes them (src/storage/schema.ts maps
 * the tables to them): booleans as integers (0/1), timestamps as ISO-8601 text in UTC, JSON columns
 * as typed values (src/storage/json-columns.ts parses and serialises them).
 */
import type { JsonObject } from '../json.js';

/** /authorize requests waiting for a login (migration 0009). */
export interface AuthorizationRequestRow {
  tenant_id: string;
  id_hash: string;
  client_id: string;
  /** The validated request (the Authentication API's AuthorizeRequest). */
  params: JsonObject;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  /** base64url SHA-256 of the starting browser's `__Host-gh_browser` cookie (migration 0012); null for older rows. */
  browser_hash: string | null;
  /** The interaction steps completed in this request (migration 0013). */
  completed_steps: string[];
  /** `id_hash` of the session this request's login step started (migration 0013); null until then. */
  session_hash: string | null;
  /** SHA-256 of the nonce of the `/continue` state while a post-login action has the login suspended (migration 0160); null otherwise. */
  continue_hash: string | null;
  /** The post-login actions' outcome so far and the action that redirected, while suspended (migration 0160). */
  action_suspension: JsonObject | null;
}
