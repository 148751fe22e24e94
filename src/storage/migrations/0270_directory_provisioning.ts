/**
 * Inbound directory provisioning per connection
 * (`/connections/{id}/directory-provisioning`): the configuration (one per
 * connection) with its last synchronization's state, the group ids it
 * synchronizes when `synchronize_groups` is `selected`, and the directory
 * users its synchronizations wrote (the run that last saw each, so that one
 * absent from a complete listing is blocked).
 */
import type { Kysely } from 'kysely';
import { idType } from './0001_foundation.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('directory_provisionings')
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('connection_id', idType(db), (c) => c.notNull())
    /** JSON: `[{auth0, idp}]`. */
    .addColumn('mapping', 'text', (c) => c.notNull())
    .addColumn('synchronize_automatically', 'integer', (c) => c.notNull())
    .addColumn('synchronize_groups', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('last_synchronization_id', 'text')
    .addColumn('last_synchronization_at', 'text')
    .addColumn('last_synchronization_status', 'text')
    .addColumn('last_synchronization_error', 'text')
    .addPrimaryKeyConstraint('directory_provisionings_pk', ['tenant_id', 'connection_id'])
    .addForeignKeyConstraint('directory_provisionings_connection_fk', ['tenant_id', 'connection_id'], 'connections', ['tenant_id', 'id'], (fk) => fk.onDelete('cascade'))
    .execute();
  await db.schema
    .createTable('directory_synchronized_groups')
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('connection_id', idType(db), (c) => c.notNull())
    .addColumn('group_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('directory_synchronized_groups_pk', ['tenant_id', 'connection_id', 'group_id'])
    .addForeignKeyConstraint('directory_synchronized_groups_configuration_fk', ['tenant_id', 'connection_id'], 'directory_provisionings', ['tenant_id', 'connection_id'], (fk) =>
      fk.onDelete('cascade'),
    )
    .execute();
  await db.schema
    .createTable('directory_users')
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('user_id', idType(db), (c) => c.notNull())
    .addColumn('connection_id', idType(db), (c) => c.notNull())
    .addColumn('directory_id', 'text', (c) => c.notNull())
    .addColumn('synchronization_id', 'text', (c) => c.notNull())
    .addColumn('blocked_by_directory', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('directory_users_pk', ['tenant_id', 'user_id'])
    .addForeignKeyConstraint('directory_users_user_fk', ['tenant_id', 'user_id'], 'users', ['tenant_id', 'user_id'], (fk) => fk.onDelete('cascade'))
    .execute();
  await db.schema.createIndex('directory_users_connection_idx').on('directory_users').columns(['tenant_id', 'connection_id', 'user_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('directory_users').execute();
  await db.schema.dropTable('directory_synchronized_groups').execute();
  await db.schema.dropTable('directory_provisionings').execute();
}
