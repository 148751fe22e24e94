/**
 * What the Management API says of refresh tokens and sessions:
 *
 * - `refresh_tokens.session_id`: the SSO session (its `id_hash`, the ID
 *   token's `sid`) whose login started the token's family, kept by every
 *   rotation; null for grants without a session (password, client-initiated
 *   backchannel, device code). Revoking a session revokes the refresh tokens
 *   it started (POST /sessions/{id}/revoke, POST /users/{id}/revoke-access).
 * - `refresh_tokens.metadata` and `sessions.metadata`: the JSON objects of
 *   `refresh_token_metadata` and `session_metadata` (at most 25 string
 *   members), null when none; a refresh token's is kept by its successors.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('refresh_tokens').addColumn('session_id', 'text').execute();
  await db.schema.alterTable('refresh_tokens').addColumn('metadata', 'text').execute();
  await db.schema.alterTable('sessions').addColumn('metadata', 'text').execute();
  await db.schema.createIndex('refresh_tokens_session_idx').on('refresh_tokens').columns(['tenant_id', 'session_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('refresh_tokens_session_idx').execute();
  await db.schema.alterTable('sessions').dropColumn('metadata').execute();
  await db.schema.alterTable('refresh_tokens').dropColumn('metadata').execute();
  await db.schema.alterTable('refresh_tokens').dropColumn('session_id').execute();
}
