/**
 * The rows of this entity's tables as its store reads and writes them (src/storage/schema.ts maps
 * the tables to them): booleans as integers (0/1), timestamps as ISO-8601 text in UTC, JSON columns
 * as typed values (src/storage/json-columns.ts parses and serialises them).
 */
import type { JsonObject } from '../json.js';

export interface UserRow {
  tenant_id: string;
  user_id: string;
  connection_id: string;
  email: string | null;
  /** Lower-cased email: unique per connection, the login lookup. */
  email_lower: string | null;
  email_verified: number;
  username: string | null;
  username_lower: string | null;
  phone_number: string | null;
  /** 0 or 1 (migration 0012). */
  phone_verified: number;
  /** argon2id, or an imported bcrypt hash until the next successful login. */
  password_hash: string | null;
  blocked: number;
  name: string | null;
  given_name: string | null;
  family_name: string | null;
  nickname: string | null;
  picture: string | null;
  app_metadata: JsonObject;
  user_metadata: JsonObject;
  created_at: string;
  updated_at: string;
  last_login: string | null;
  last_password_reset: string | null;
  logins_count: number;
  /**
   * The primary user this row is a linked identity of (migration 0085), null
   * for a user of its own. A linked row is no user: only its
   * primary's identities and the logins of its connection see it.
   */
  linked_to: string | null;
}
