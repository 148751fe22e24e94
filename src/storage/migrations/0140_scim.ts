/**
 * SCIM 2.0 inbound provisioning per enterprise connection
 * (`/connections/{id}/scim-configuration`, the endpoint `/scim/v2/connections/{id}`):
 * the configuration (one per connection), its bearer tokens (their SHA-256
 * only, unique), and each provisioned user's SCIM representation, beside the
 * user row it maps onto; `userName` unique per connection, `externalId`
 * indexed for the filters the endpoint answers.
 */
import type { Kysely } from 'kysely';
import { idType } from './0001_foundation.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('scim_configurations')
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('connection_id', idType(db), (c) => c.notNull())
    .addColumn('user_id_attribute', 'text', (c) => c.notNull())
    /** JSON: `[{auth0, scim}]`. */
    .addColumn('mapping', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_on', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('scim_configurations_pk', ['tenant_id', 'connection_id'])
    .addForeignKeyConstraint('scim_configurations_connection_fk', ['tenant_id', 'connection_id'], 'connections', ['tenant_id', 'id'], (fk) => fk.onDelete('cascade'))
    .execute();
  await db.schema
    .createTable('scim_tokens')
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('id', idType(db), (c) => c.notNull())
    .addColumn('connection_id', idType(db), (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull())
    /** JSON: the SCIM scopes. */
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('valid_until', 'text')
    .addColumn('last_used_at', 'text')
    .addPrimaryKeyConstraint('scim_tokens_pk', ['tenant_id', 'id'])
    .addForeignKeyConstraint('scim_tokens_configuration_fk', ['tenant_id', 'connection_id'], 'scim_configurations', ['tenant_id', 'connection_id'], (fk) =>
      fk.onDelete('cascade'),
    )
    .execute();
  await db.schema.createIndex('scim_tokens_hash_uq').on('scim_tokens').columns(['token_hash']).unique().execute();
  await db.schema.createIndex('scim_tokens_connection_idx').on('scim_tokens').columns(['tenant_id', 'connection_id', 'created_at']).execute();
  await db.schema
    .createTable('scim_users')
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('user_id', idType(db), (c) => c.notNull())
    .addColumn('connection_id', idType(db), (c) => c.notNull())
    .addColumn('external_id', 'text')
    .addColumn('user_name_lower', 'text', (c) => c.notNull())
    /** JSON: the SCIM resource as last written. */
    .addColumn('resource', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('scim_users_pk', ['tenant_id', 'user_id'])
    .addForeignKeyConstraint('scim_users_user_fk', ['tenant_id', 'user_id'], 'users', ['tenant_id', 'user_id'], (fk) => fk.onDelete('cascade'))
    .execute();
  await db.schema.createIndex('scim_users_user_name_uq').on('scim_users').columns(['tenant_id', 'connection_id', 'user_name_lower']).unique().execute();
  await db.schema.createIndex('scim_users_external_id_idx').on('scim_users').columns(['tenant_id', 'connection_id', 'external_id']).execute();
  await db.schema.createIndex('scim_users_created_idx').on('scim_users').columns(['tenant_id', 'connection_id', 'created_at', 'user_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('scim_users').execute();
  await db.schema.dropTable('scim_tokens').execute();
  await db.schema.dropTable('scim_configurations').execute();
}
