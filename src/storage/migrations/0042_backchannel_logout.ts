/**
 * Back-channel logout (OpenID Connect Back-Channel Logout 1.0):
 *
 * - `session_clients`: the clients an SSO session issued tokens to (who is
 *   told when it ends); goes with the session.
 * - `backchannel_logout_deliveries`: the durable queue of logout
 *   notifications. A row names the client, the URL, the session (`sid`) and
 *   user (`sub`); the logout token itself is signed at each attempt, so none
 *   rests in the table and none goes out stale. Attempts are retried with
 *   backoff (`next_attempt_at`) until delivered or given up; rows outlive the
 *   user and the session they are about.
 * - `sessions.logout_notified_at`: when the session's end was queued, so
 *   each ended session is announced once (also the expiry sweep's marker).
 */
import type { Kysely } from 'kysely';
import { idType } from './0001_foundation.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('session_clients')
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('session_id', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('session_clients_pk', ['tenant_id', 'session_id', 'client_id'])
    .addForeignKeyConstraint('session_clients_session_fk', ['tenant_id', 'session_id'], 'sessions', ['tenant_id', 'id_hash'], (fk) => fk.onDelete('cascade'))
    .execute();

  await db.schema
    .createTable('backchannel_logout_deliveries')
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('id', idType(db), (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('sid', 'text', (c) => c.notNull())
    .addColumn('sub', 'text', (c) => c.notNull())
    .addColumn('initiator', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('next_attempt_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('delivered_at', 'text')
    .addColumn('gave_up_at', 'text')
    .addColumn('last_error', 'text')
    .addPrimaryKeyConstraint('backchannel_logout_deliveries_pk', ['tenant_id', 'id'])
    .execute();
  await db.schema.createIndex('backchannel_logout_deliveries_due_idx').on('backchannel_logout_deliveries').columns(['next_attempt_at']).execute();

  await db.schema.alterTable('sessions').addColumn('logout_notified_at', 'text').execute();
  await db.schema.createIndex('sessions_expires_idx').on('sessions').columns(['expires_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('sessions_expires_idx').execute();
  await db.schema.alterTable('sessions').dropColumn('logout_notified_at').execute();
  await db.schema.dropTable('backchannel_logout_deliveries').execute();
  await db.schema.dropTable('session_clients').execute();
}
