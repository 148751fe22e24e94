/**
 * Connection profiles (`/connection-profiles`): the settings an enterprise
 * connection starts from, referenced by clients' express configuration.
 * `name` is unique per tenant (the service's 409); the other members of the
 * document's `ConnectionProfile` are one JSON column, as given.
 */
import type { Kysely } from 'kysely';
import { idType } from './0001_foundation.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('connection_profiles')
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('id', idType(db), (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    /** JSON: organization, connection_name_prefix_template, enabled_features, connection_config, strategy_overrides (those set). */
    .addColumn('profile', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('connection_profiles_pk', ['tenant_id', 'id'])
    .addUniqueConstraint('connection_profiles_name_unique', ['tenant_id', 'name'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('connection_profiles').execute();
}
