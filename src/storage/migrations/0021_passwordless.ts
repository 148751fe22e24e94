/**
 * Passwordless login codes (src/domain/passwordless): at most one live code
 * per connection and recipient (a new /passwordless/start replaces it), kept
 * as its SHA-256 with its expiry, the count of wrong tries against it, and
 * when it was used (single use).
 */
import type { Kysely } from 'kysely';
import { idType } from './0001_foundation.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('passwordless_codes')
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('connection_id', idType(db), (c) => c.notNull())
    .addColumn('recipient', 'text', (c) => c.notNull())
    .addColumn('client_id', idType(db), (c) => c.notNull())
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addPrimaryKeyConstraint('passwordless_codes_pk', ['tenant_id', 'connection_id', 'recipient'])
    .addForeignKeyConstraint('passwordless_codes_connection_fk', ['tenant_id', 'connection_id'], 'connections', ['tenant_id', 'id'], (fk) => fk.onDelete('cascade'))
    .execute();
  await db.schema.createIndex('passwordless_codes_expires_idx').on('passwordless_codes').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('passwordless_codes').execute();
}
