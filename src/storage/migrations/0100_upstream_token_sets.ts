/**
 * `upstream_token_sets`: a user's access and refresh tokens at an upstream
 * identity provider, sealed with the master key, one set per user and
 * connection (src/domain/upstream-tokens/): shown in `identities[]` to tokens
 * with read:user_idp_tokens, exchanged by Token Vault. Gone with the user or
 * the connection.
 */
import type { Kysely } from 'kysely';
import { idType } from './0001_foundation.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('upstream_token_sets')
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('id', idType(db), (c) => c.notNull())
    .addColumn('user_id', idType(db), (c) => c.notNull())
    .addColumn('connection_id', idType(db), (c) => c.notNull())
    .addColumn('connection', 'text', (c) => c.notNull())
    .addColumn('access_token', 'text')
    .addColumn('refresh_token', 'text')
    .addColumn('scope', 'text')
    .addColumn('access_token_expires_at', 'text')
    .addColumn('issued_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text')
    .addPrimaryKeyConstraint('upstream_token_sets_pk', ['tenant_id', 'id'])
    .addUniqueConstraint('upstream_token_sets_user_connection', ['tenant_id', 'user_id', 'connection_id'])
    .addForeignKeyConstraint('upstream_token_sets_user_fk', ['tenant_id', 'user_id'], 'users', ['tenant_id', 'user_id'], (fk) => fk.onDelete('cascade'))
    .addForeignKeyConstraint('upstream_token_sets_connection_fk', ['tenant_id', 'connection_id'], 'connections', ['tenant_id', 'id'], (fk) => fk.onDelete('cascade'))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('upstream_token_sets').execute();
}
