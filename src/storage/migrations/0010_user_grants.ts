/**
 * Users' consent grants: the scopes a user let a client have for an API (the
 * `/userinfo` audience when only OpenID Connect scopes were asked), listed and
 * revoked through the Management API's /api/v2/grants. One row per user,
 * client and audience (a unique index), whose scopes only grow as the user
 * consents to more. A grant goes with its user and with its client (cascading
 * foreign keys, as connection_clients does for clients), and with its tenant.
 */
import type { Kysely } from 'kysely';
import { idType } from './0001_foundation.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('user_grants')
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    /** `cgr_` and 16 alphanumerics. */
    .addColumn('id', idType(db), (c) => c.notNull())
    .addColumn('user_id', idType(db), (c) => c.notNull())
    .addColumn('client_id', idType(db), (c) => c.notNull())
    /** The API identifier (resource server `identifier`), or `https://{domain}/userinfo`. */
    .addColumn('audience', 'text', (c) => c.notNull())
    /** JSON array of the granted scope strings, in the order they were first granted. */
    .addColumn('scope', 'text', (c) => c.notNull())
    /** ISO 8601 UTC timestamps. */
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('user_grants_pk', ['tenant_id', 'id'])
    .addForeignKeyConstraint('user_grants_user_fk', ['tenant_id', 'user_id'], 'users', ['tenant_id', 'user_id'], (fk) => fk.onDelete('cascade'))
    .addForeignKeyConstraint('user_grants_client_fk', ['tenant_id', 'client_id'], 'clients', ['tenant_id', 'client_id'], (fk) =>
      fk.onDelete('cascade'),
    )
    .execute();
  // One grant per user, client and audience: consent merges into it. Also serves the user_id filter.
  await db.schema
    .createIndex('user_grants_user_client_audience_uq')
    .on('user_grants')
    .columns(['tenant_id', 'user_id', 'client_id', 'audience'])
    .unique()
    .execute();
  // GET /grants?client_id= pages in id order; the client foreign key's cascade looks rows up by it too.
  await db.schema.createIndex('user_grants_client_idx').on('user_grants').columns(['tenant_id', 'client_id', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('user_grants').execute();
}
