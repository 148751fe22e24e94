/**
 * Event streams (the service's /api/v2/event-streams):
 *
 * - `event_streams`: a tenant's streams, their subscriptions and webhook
 *   destination (the public part as JSON; the authorization's secret, a
 *   bearer token, a password or a header's value, sealed in
 *   `authorization_enc`).
 * - `event_deliveries`: the outbox. A change that produces an event (a user
 *   created, updated or deleted, an organization or its members changed)
 *   writes one row per subscribed stream in the same transaction as the
 *   change, so an event is queued exactly when its change commits. The row
 *   carries the CloudEvent itself; the worker
 *   (src/domain/event-streams/delivery.ts) claims due rows under a lease
 *   (its `next_attempt_at` moved past the attempt; PostgreSQL skips rows another
 *   process is claiming), posts them,
 *   and marks them delivered or schedules a retry with backoff. Rows go with
 *   their stream.
 */
import type { Kysely } from 'kysely';
import { idType } from './0001_foundation.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('event_streams')
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    /** `est_` + 22 characters. */
    .addColumn('id', idType(db), (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    /** The event types, a JSON array of strings. */
    .addColumn('subscriptions', 'text', (c) => c.notNull())
    /** `{type: 'webhook', configuration: {webhook_endpoint, webhook_authorization: {method, username?, header_key?}}}` */
    .addColumn('destination', 'text', (c) => c.notNull())
    .addColumn('authorization_enc', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('event_streams_pk', ['tenant_id', 'id'])
    .execute();

  await db.schema
    .createTable('event_deliveries')
    /** `del_` + 22 characters, unique across tenants (the worker claims by it). */
    .addColumn('id', idType(db), (c) => c.primaryKey())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('stream_id', idType(db), (c) => c.notNull())
    /** `evt_` + 22 characters: the CloudEvent's id, one per change (shared by the streams it went to). */
    .addColumn('event_id', idType(db), (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    /** The CloudEvent as sent, JSON. */
    .addColumn('event', 'text', (c) => c.notNull())
    /** `pending` (to be attempted), `delivered`, `failed` (given up). */
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    /** The failed attempts, JSON `[{status, timestamp, error_message}]` (the latest few). */
    .addColumn('attempt_log', 'text', (c) => c.notNull())
    /** When the next attempt is due; a claimed row's is moved past its lease, so a process that dies mid-attempt leaves it due again. */
    .addColumn('next_attempt_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('delivered_at', 'text')
    .addUniqueConstraint('event_deliveries_event_uq', ['tenant_id', 'stream_id', 'event_id'])
    .addForeignKeyConstraint('event_deliveries_stream_fk', ['tenant_id', 'stream_id'], 'event_streams', ['tenant_id', 'id'], (fk) => fk.onDelete('cascade'))
    .execute();
  await db.schema.createIndex('event_deliveries_due_idx').on('event_deliveries').columns(['status', 'next_attempt_at']).execute();
  await db.schema.createIndex('event_deliveries_stream_idx').on('event_deliveries').columns(['tenant_id', 'stream_id', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('event_deliveries').execute();
  await db.schema.dropTable('event_streams').execute();
}
