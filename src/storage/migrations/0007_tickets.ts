/**
 * One-use tickets sent by email: email verification and password reset links.
 * Only the SHA-256 of the random ticket is stored, so a database read does not
 * yield working links. A ticket goes with its user (cascading foreign key).
 */
import type { Kysely } from 'kysely';
import { idType } from './0001_foundation.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('tickets')
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    /** base64url SHA-256 of the ticket as sent in the link. */
    .addColumn('id_hash', idType(db), (c) => c.notNull())
    /** 'email_verification' | 'password_reset'. */
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('user_id', idType(db), (c) => c.notNull())
    /** ISO 8601 UTC timestamps (lexical order is time order). */
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addPrimaryKeyConstraint('tickets_pk', ['tenant_id', 'id_hash'])
    .addForeignKeyConstraint('tickets_user_fk', ['tenant_id', 'user_id'], 'users', ['tenant_id', 'user_id'], (fk) => fk.onDelete('cascade'))
    .execute();
  await db.schema.createIndex('tickets_user_idx').on('tickets').columns(['tenant_id', 'user_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('tickets').execute();
}
