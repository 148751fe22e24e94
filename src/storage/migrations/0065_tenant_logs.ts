/**
 * Tenant logs and log streams:
 *
 * - `tenant_logs`: the log events, in the service's Log shape (`details` as
 *   JSON). Keyed by (tenant, log_id); `log_id` sorts as events were recorded,
 *   so checkpoint paging and the streams' cursors are range scans of the key.
 *   Indexed by date (sorting, ranges, retention) and by user (/users/{id}/logs).
 *   Purged after GATEHOUSE_LOG_RETENTION_DAYS (src/storage/purge.ts).
 * - `log_streams`: the streams' configuration (the sink's Authorization
 *   header sealed in `authorization_enc`) and their delivery state: a cursor
 *   over `tenant_logs`, attempts and the next attempt, a lease.
 */
import type { Kysely } from 'kysely';
import { idType } from './0001_foundation.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('tenant_logs')
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('log_id', idType(db), (c) => c.notNull())
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('client_id', 'text')
    .addColumn('client_name', 'text')
    .addColumn('ip', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('user_id', 'text')
    .addColumn('user_name', 'text')
    .addColumn('connection', 'text')
    .addColumn('connection_id', 'text')
    .addColumn('strategy', 'text')
    .addColumn('strategy_type', 'text')
    .addColumn('audience', 'text')
    .addColumn('scope', 'text')
    .addColumn('hostname', 'text')
    .addColumn('details', 'text')
    .addPrimaryKeyConstraint('tenant_logs_pk', ['tenant_id', 'log_id'])
    .execute();
  await db.schema.createIndex('tenant_logs_date_idx').on('tenant_logs').columns(['tenant_id', 'date', 'log_id']).execute();
  await db.schema.createIndex('tenant_logs_user_idx').on('tenant_logs').columns(['tenant_id', 'user_id', 'date']).execute();
  await db.schema.createIndex('tenant_logs_purge_idx').on('tenant_logs').columns(['date']).execute();

  await db.schema
    .createTable('log_streams')
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('id', idType(db), (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('filters', 'text', (c) => c.notNull())
    .addColumn('sink', 'text', (c) => c.notNull())
    .addColumn('authorization_enc', 'text')
    .addColumn('cursor', idType(db), (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('next_attempt_at', 'text', (c) => c.notNull())
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('log_streams_pk', ['tenant_id', 'id'])
    .execute();
  await db.schema.createIndex('log_streams_due_idx').on('log_streams').columns(['status', 'next_attempt_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('log_streams').execute();
  await db.schema.dropTable('tenant_logs').execute();
}
