/**
 * Tenants, signing keys, clients, resource servers and client grants.
 * Migrations are immutable once released: change the schema in a new file.
 */
import { PostgresAdapter, sql, type Kysely, type RawBuilder } from 'kysely';

/**
 * Ids are ASCII and are compared and sorted byte-wise on both databases
 * (keyset paging relies on it): PostgreSQL columns get the "C" collation,
 * whatever the database default is; SQLite's default (BINARY) already is.
 */
export function idType(db: Kysely<unknown>): 'text' | RawBuilder<unknown> {
  return db.getExecutor().adapter instanceof PostgresAdapter ? sql`text collate "C"` : 'text';
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('tenants')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('domain', 'text', (c) => c.notNull().unique())
    .addColumn('settings', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('signing_keys')
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('kid', 'text', (c) => c.notNull())
    .addColumn('private_key_enc', 'text', (c) => c.notNull())
    .addColumn('public_jwk', 'text', (c) => c.notNull())
    .addColumn('cert_der', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('signing_keys_pk', ['tenant_id', 'kid'])
    .execute();

  await db.schema
    .createTable('clients')
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('client_id', idType(db), (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('app_type', 'text')
    .addColumn('is_first_party', 'integer', (c) => c.notNull())
    .addColumn('global', 'integer', (c) => c.notNull())
    .addColumn('token_endpoint_auth_method', 'text', (c) => c.notNull())
    .addColumn('client_authentication_methods', 'text')
    .addColumn('grant_types', 'text', (c) => c.notNull())
    .addColumn('client_secret_enc', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('clients_pk', ['tenant_id', 'client_id'])
    .execute();

  await db.schema
    .createTable('resource_servers')
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('identifier', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('is_system', 'integer', (c) => c.notNull())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('signing_alg', 'text', (c) => c.notNull())
    .addColumn('signing_secret_enc', 'text')
    .addColumn('token_lifetime', 'integer', (c) => c.notNull())
    .addColumn('token_lifetime_for_web', 'integer', (c) => c.notNull())
    .addColumn('allow_offline_access', 'integer', (c) => c.notNull())
    .addColumn('skip_consent_for_verifiable_first_party_clients', 'integer', (c) => c.notNull())
    .addColumn('enforce_policies', 'integer', (c) => c.notNull())
    .addColumn('token_dialect', 'text', (c) => c.notNull())
    .addColumn('options', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('resource_servers_pk', ['tenant_id', 'id'])
    .addUniqueConstraint('resource_servers_identifier_uq', ['tenant_id', 'identifier'])
    .execute();
  await db.schema
    .createIndex('resource_servers_created_idx')
    .on('resource_servers')
    .columns(['tenant_id', 'created_at', 'id'])
    .execute();

  await db.schema
    .createTable('client_grants')
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('id', idType(db), (c) => c.notNull())
    .addColumn('client_id', idType(db))
    .addColumn('audience', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('organization_usage', 'text')
    .addColumn('allow_any_organization', 'integer')
    .addColumn('is_system', 'integer', (c) => c.notNull())
    .addColumn('subject_type', 'text', (c) => c.notNull().defaultTo('client'))
    .addColumn('authorization_details_types', 'text', (c) => c.notNull())
    .addColumn('allow_all_scopes', 'integer')
    .addColumn('default_for', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('client_grants_pk', ['tenant_id', 'id'])
    .execute();
  // One grant per client, audience and subject type; the token endpoint looks grants up this way.
  await db.schema
    .createIndex('client_grants_client_audience_uq')
    .on('client_grants')
    .columns(['tenant_id', 'client_id', 'audience', 'subject_type'])
    .unique()
    .execute();
  await db.schema.createIndex('client_grants_audience_idx').on('client_grants').columns(['tenant_id', 'audience']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['client_grants', 'resource_servers', 'clients', 'signing_keys', 'tenants']) {
    await db.schema.dropTable(table).execute();
  }
}
