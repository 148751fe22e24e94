/**
 * The authorization code flow (RFC 6749 §4.1, OIDC Core §3.1): login
 * sessions, the authorization requests waiting for a login, and the codes.
 * Each holds only the SHA-256 of its secret (cookie value, transaction id,
 * code), so a database read yields nothing that works. Everything goes with
 * its user or tenant (cascading foreign keys).
 */
import type { Kysely } from 'kysely';
import { idType } from './0001_foundation.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sessions')
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    /** base64url SHA-256 of the `gh_session` cookie value. */
    .addColumn('id_hash', idType(db), (c) => c.notNull())
    .addColumn('user_id', idType(db), (c) => c.notNull())
    /** Seconds since the epoch of the login (OIDC `auth_time`). */
    .addColumn('auth_time', 'integer', (c) => c.notNull())
    /** ISO 8601 UTC timestamps (lexical order is time order). */
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .addPrimaryKeyConstraint('sessions_pk', ['tenant_id', 'id_hash'])
    .addForeignKeyConstraint('sessions_user_fk', ['tenant_id', 'user_id'], 'users', ['tenant_id', 'user_id'], (fk) => fk.onDelete('cascade'))
    .execute();
  await db.schema.createIndex('sessions_user_idx').on('sessions').columns(['tenant_id', 'user_id']).execute();

  await db.schema
    .createTable('authorization_requests')
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    /** base64url SHA-256 of the transaction id sent as /login?state=. */
    .addColumn('id_hash', idType(db), (c) => c.notNull())
    .addColumn('client_id', idType(db), (c) => c.notNull())
    /** The validated /authorize parameters, JSON. */
    .addColumn('params', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addPrimaryKeyConstraint('authorization_requests_pk', ['tenant_id', 'id_hash'])
    .execute();

  await db.schema
    .createTable('authorization_codes')
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    /** base64url SHA-256 of the code. */
    .addColumn('code_hash', idType(db), (c) => c.notNull())
    .addColumn('client_id', idType(db), (c) => c.notNull())
    .addColumn('user_id', idType(db), (c) => c.notNull())
    /** The redirect_uri sent to /authorize; null when none was sent (RFC 6749 §4.1.3). */
    .addColumn('redirect_uri', 'text')
    .addColumn('scope', 'text')
    .addColumn('audience', 'text')
    .addColumn('nonce', 'text')
    .addColumn('code_challenge', 'text')
    .addColumn('code_challenge_method', 'text')
    /** The session's id_hash (the ID token's `sid`). */
    .addColumn('session_id', idType(db), (c) => c.notNull())
    .addColumn('auth_time', 'integer', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    /** The refresh-token family issued with the code's use, revoked if the code is replayed (RFC 6749 §4.1.2). */
    .addColumn('refresh_family_id', idType(db))
    .addPrimaryKeyConstraint('authorization_codes_pk', ['tenant_id', 'code_hash'])
    .addForeignKeyConstraint('authorization_codes_user_fk', ['tenant_id', 'user_id'], 'users', ['tenant_id', 'user_id'], (fk) => fk.onDelete('cascade'))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('authorization_codes').execute();
  await db.schema.dropTable('authorization_requests').execute();
  await db.schema.dropTable('sessions').execute();
}
