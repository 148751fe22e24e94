/**
 * Database connections and their users (issue: end-user authentication).
 * Emails and usernames are unique per connection, compared case-insensitively
 * through their lower-cased copies.
 */
import type { Kysely } from 'kysely';
import { idType } from './0001_foundation.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('connections')
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('id', idType(db), (c) => c.notNull())
    .addColumn('name', idType(db), (c) => c.notNull())
    .addColumn('display_name', 'text')
    .addColumn('strategy', 'text', (c) => c.notNull())
    /** JSON: the connection's options (password policy, requires_username, …). */
    .addColumn('options', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('is_domain_connection', 'integer', (c) => c.notNull().defaultTo(0))
    /** JSON array of realm names. */
    .addColumn('realms', 'text', (c) => c.notNull().defaultTo('[]'))
    /** JSON object of string values. */
    .addColumn('metadata', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('connections_pk', ['tenant_id', 'id'])
    .addUniqueConstraint('connections_name_uq', ['tenant_id', 'name'])
    .execute();

  await db.schema
    .createTable('connection_clients')
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('connection_id', idType(db), (c) => c.notNull())
    .addColumn('client_id', idType(db), (c) => c.notNull())
    .addPrimaryKeyConstraint('connection_clients_pk', ['tenant_id', 'connection_id', 'client_id'])
    .addForeignKeyConstraint('connection_clients_connection_fk', ['tenant_id', 'connection_id'], 'connections', ['tenant_id', 'id'], (fk) =>
      fk.onDelete('cascade'),
    )
    .addForeignKeyConstraint('connection_clients_client_fk', ['tenant_id', 'client_id'], 'clients', ['tenant_id', 'client_id'], (fk) =>
      fk.onDelete('cascade'),
    )
    .execute();
  await db.schema.createIndex('connection_clients_client_idx').on('connection_clients').columns(['tenant_id', 'client_id']).execute();

  await db.schema
    .createTable('users')
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('user_id', idType(db), (c) => c.notNull())
    .addColumn('connection_id', idType(db), (c) => c.notNull())
    .addColumn('email', 'text')
    .addColumn('email_lower', 'text')
    .addColumn('email_verified', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('username', 'text')
    .addColumn('username_lower', 'text')
    .addColumn('phone_number', 'text')
    /** argon2id (`$argon2id$…`) or an imported bcrypt hash (`$2a$`/`$2b$`), rehashed on the next login. */
    .addColumn('password_hash', 'text')
    .addColumn('blocked', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('name', 'text')
    .addColumn('given_name', 'text')
    .addColumn('family_name', 'text')
    .addColumn('nickname', 'text')
    .addColumn('picture', 'text')
    /** JSON objects. */
    .addColumn('app_metadata', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('user_metadata', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('last_login', 'text')
    .addColumn('last_password_reset', 'text')
    .addColumn('logins_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('users_pk', ['tenant_id', 'user_id'])
    .addForeignKeyConstraint('users_connection_fk', ['tenant_id', 'connection_id'], 'connections', ['tenant_id', 'id'], (fk) =>
      fk.onDelete('cascade'),
    )
    .execute();
  await db.schema.createIndex('users_email_uq').on('users').columns(['tenant_id', 'connection_id', 'email_lower']).unique().execute();
  await db.schema.createIndex('users_username_uq').on('users').columns(['tenant_id', 'connection_id', 'username_lower']).unique().execute();
  await db.schema.createIndex('users_created_idx').on('users').columns(['tenant_id', 'created_at', 'user_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('users').execute();
  await db.schema.dropTable('connection_clients').execute();
  await db.schema.dropTable('connections').execute();
}
