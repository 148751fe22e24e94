/**
 * The device authorization flow (RFC 8628): one row per device
 * authorization request. The device code and the user code are kept only as
 * their SHA-256 (the user code normalised: upper case, no dash). A request
 * waits `pending` until the user approves (with the login it was approved by:
 * user, session, the scope and audience granted, the organization) or denies
 * it on /activate; the token endpoint then spends it once (`used_at`).
 * `last_polled_at` paces the polling (`slow_down`); `expiry_reported` makes
 * `expired_token` an answer given once.
 */
import type { Kysely } from 'kysely';
import { idType } from './0001_foundation.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('device_codes')
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('id', idType(db), (c) => c.notNull())
    .addColumn('device_code_hash', 'text', (c) => c.notNull())
    .addColumn('user_code_hash', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('scope', 'text')
    .addColumn('audience', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text')
    .addColumn('session_id', 'text')
    .addColumn('auth_time', 'integer')
    .addColumn('organization_id', 'text')
    .addColumn('interval', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('last_polled_at', 'text')
    .addColumn('expiry_reported', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('used_at', 'text')
    .addPrimaryKeyConstraint('device_codes_pk', ['tenant_id', 'id'])
    .execute();
  await db.schema.createIndex('device_codes_device_code_uq').on('device_codes').columns(['tenant_id', 'device_code_hash']).unique().execute();
  await db.schema.createIndex('device_codes_user_code_uq').on('device_codes').columns(['tenant_id', 'user_code_hash']).unique().execute();
  await db.schema.createIndex('device_codes_expires_idx').on('device_codes').columns(['expires_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('device_codes').execute();
}
