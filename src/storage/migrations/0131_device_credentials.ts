/**
 * Device credentials (POST/GET/DELETE /api/v2/device-credentials): the public
 * keys native applications register for a user's device. One key per user,
 * application and device (`device_id`), so a second registration is the
 * service's 409. The key goes with its user (cascading foreign key).
 * Refresh tokens, the other credentials the operations list, stay in
 * `refresh_tokens`.
 */
import type { Kysely } from 'kysely';
import { idType } from './0001_foundation.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('device_credentials')
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    /** `dcr_` + 16 characters. */
    .addColumn('id', idType(db), (c) => c.notNull())
    .addColumn('user_id', idType(db), (c) => c.notNull())
    .addColumn('client_id', idType(db), (c) => c.notNull())
    .addColumn('device_id', idType(db), (c) => c.notNull())
    .addColumn('device_name', 'text', (c) => c.notNull())
    /** `public_key`, the one type the operation creates. */
    .addColumn('type', 'text', (c) => c.notNull())
    /** The key as sent (base64); public, so stored in the clear. */
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('device_credentials_pk', ['tenant_id', 'id'])
    .addForeignKeyConstraint('device_credentials_user_fk', ['tenant_id', 'user_id'], 'users', ['tenant_id', 'user_id'], (fk) => fk.onDelete('cascade'))
    .addUniqueConstraint('device_credentials_device_uq', ['tenant_id', 'user_id', 'client_id', 'device_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('device_credentials').execute();
}
