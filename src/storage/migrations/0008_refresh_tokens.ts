/**
 * Refresh tokens (RFC 6749 §1.5, §6). Only the SHA-256 of the opaque token is
 * stored, so a database read yields no working token. Tokens descending from
 * one grant share a `family_id`: reuse of a rotated token revokes the family
 * (OAuth 2.0 Security BCP §4.14.2). A token goes with its user (cascading
 * foreign key), so a deleted user's tokens stop working at once.
 */
import type { Kysely } from 'kysely';
import { idType } from './0001_foundation.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('refresh_tokens')
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    /** base64url SHA-256 of the token as sent to the client. */
    .addColumn('id_hash', idType(db), (c) => c.notNull())
    .addColumn('family_id', idType(db), (c) => c.notNull())
    .addColumn('client_id', idType(db), (c) => c.notNull())
    .addColumn('user_id', idType(db), (c) => c.notNull())
    /** The API the access tokens are for; null for /userinfo-only tokens. */
    .addColumn('audience', 'text')
    /** Space-separated scopes granted with the token (what a refresh may narrow). */
    .addColumn('scope', 'text', (c) => c.notNull())
    /** ISO 8601 UTC timestamps (lexical order is time order). */
    .addColumn('created_at', 'text', (c) => c.notNull())
    /** Absolute expiry; null when the lifetime is infinite. */
    .addColumn('expires_at', 'text')
    /** Idle expiry, moved forward by each use; null when the idle lifetime is infinite. */
    .addColumn('idle_expires_at', 'text')
    .addColumn('last_used_at', 'text', (c) => c.notNull())
    /** When the token was exchanged for its successor under rotation. */
    .addColumn('rotated_at', 'text')
    .addColumn('revoked_at', 'text')
    .addPrimaryKeyConstraint('refresh_tokens_pk', ['tenant_id', 'id_hash'])
    .addForeignKeyConstraint('refresh_tokens_user_fk', ['tenant_id', 'user_id'], 'users', ['tenant_id', 'user_id'], (fk) => fk.onDelete('cascade'))
    .execute();
  await db.schema.createIndex('refresh_tokens_family_idx').on('refresh_tokens').columns(['tenant_id', 'family_id']).execute();
  await db.schema.createIndex('refresh_tokens_user_idx').on('refresh_tokens').columns(['tenant_id', 'user_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('refresh_tokens').execute();
}
