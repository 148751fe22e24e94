/**
 * The tenant's event log, read by GET /api/v2/events (Server-Sent Events):
 * every event Gatehouse produces (src/domain/event-streams/events.ts
 * PRODUCED_EVENT_TYPES), whether or not a stream subscribes to it, at the
 * tenant's next position `seq`.
 *
 * - `tenant_event_counters`: the tenant's last position. An event takes the
 *   next one by updating this row in the transaction of its change, so the
 *   row stays locked until that transaction ends: positions commit in
 *   order and without gaps (a rolled-back change gives its position back),
 *   and a reader that has seen position N has seen every position before
 *   it, in every process sharing the database.
 * - `tenant_events`: the CloudEvent as streams receive it, less `a0stream`
 *   (each subscription adds its own); `expires_at` is `created_at` plus the
 *   retention (24 hours), after which the hourly purge
 *   (src/storage/purge.ts) deletes it a day later; a cursor before the oldest
 *   kept position is answered 410.
 */
import type { Kysely } from 'kysely';
import { idType } from './0001_foundation.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('tenant_event_counters')
    .addColumn('tenant_id', 'text', (c) => c.primaryKey().references('tenants.id').onDelete('cascade'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('tenant_events')
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    /** `evt_…`: the event's id, shared with its stream deliveries. */
    .addColumn('id', idType(db), (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    /** The CloudEvent less `a0stream`, JSON. */
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('tenant_events_pk', ['tenant_id', 'seq'])
    .execute();
  // from_timestamp finds its position by time; the purge finds what expired.
  await db.schema.createIndex('tenant_events_time_idx').on('tenant_events').columns(['tenant_id', 'created_at']).execute();
  await db.schema.createIndex('tenant_events_expires_idx').on('tenant_events').columns(['expires_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('tenant_events').execute();
  await db.schema.dropTable('tenant_event_counters').execute();
}
