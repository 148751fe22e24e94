/**
 * Client-Initiated Backchannel Authentication (OpenID CIBA Core 1.0, poll
 * mode): one row per request. The `auth_req_id` the client polls with and the
 * ticket of the approval link mailed to the user are kept only as their
 * SHA-256. A request waits `pending` until the user approves or denies it on
 * the link's page; the token endpoint then spends it once (`used_at`);
 * `last_polled_at` paces the polling (`slow_down`).
 */
import type { Kysely } from 'kysely';
import { idType } from './0001_foundation.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('backchannel_auth_requests')
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('id', idType(db), (c) => c.notNull())
    .addColumn('auth_req_id_hash', 'text', (c) => c.notNull())
    .addColumn('ticket_hash', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('audience', 'text')
    .addColumn('binding_message', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('interval', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('decided_at', 'text')
    .addColumn('last_polled_at', 'text')
    .addColumn('used_at', 'text')
    .addPrimaryKeyConstraint('backchannel_auth_requests_pk', ['tenant_id', 'id'])
    .execute();
  await db.schema.createIndex('backchannel_auth_requests_req_uq').on('backchannel_auth_requests').columns(['tenant_id', 'auth_req_id_hash']).unique().execute();
  await db.schema.createIndex('backchannel_auth_requests_ticket_uq').on('backchannel_auth_requests').columns(['tenant_id', 'ticket_hash']).unique().execute();
  await db.schema.createIndex('backchannel_auth_requests_expires_idx').on('backchannel_auth_requests').columns(['expires_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('backchannel_auth_requests').execute();
}
