/**
 * The full client model: the configuration the Management API returns lives
 * in `config` (JSON), beside real columns for what lists filter and page on.
 * `client_counts` keeps per-tenant counts by filterable attributes so that
 * `include_totals` does not count rows (see src/storage/kysely/clients.ts).
 */
import type { Kysely } from 'kysely';
import { idType } from './0001_foundation.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('clients').addColumn('external_client_id', 'text').execute();
  await db.schema.alterTable('clients').addColumn('config', 'text', (c) => c.notNull().defaultTo('{}')).execute();
  // Keyset pages per filter: each index ends with client_id, the paging key.
  for (const [name, columns] of [
    ['clients_global_idx', ['tenant_id', 'global', 'client_id']],
    ['clients_first_party_idx', ['tenant_id', 'is_first_party', 'client_id']],
    ['clients_app_type_idx', ['tenant_id', 'app_type', 'client_id']],
    ['clients_external_id_idx', ['tenant_id', 'external_client_id']],
  ] as const) {
    await db.schema.createIndex(name).on('clients').columns([...columns]).execute();
  }

  // GET /clients?q=client_grant.allow_any_organization:true walks this index in client_id order.
  await db.schema
    .createIndex('client_grants_any_organization_idx')
    .on('client_grants')
    .columns(['tenant_id', 'allow_any_organization', 'client_id'])
    .execute();

  await db.schema
    .createTable('client_counts')
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('global', 'integer', (c) => c.notNull())
    .addColumn('is_first_party', 'integer', (c) => c.notNull())
    // '' stands for no app_type (NULL would not be unique).
    .addColumn('app_type', idType(db), (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('client_counts_pk', ['tenant_id', 'global', 'is_first_party', 'app_type'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('client_counts').execute();
}
