/** Organizations and the client grants linked to them (read by GET /clients?q=client_grant.organization_id:…). */
import type { Kysely } from 'kysely';
import { idType } from './0001_foundation.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('organizations')
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('id', idType(db), (c) => c.notNull())
    // Names and display names are compared and sorted byte-wise like ids (`sort=name:1`),
    // so both databases order an organization list the same way.
    .addColumn('name', idType(db), (c) => c.notNull())
    .addColumn('display_name', idType(db))
    /** JSON object or null. */
    .addColumn('branding', 'text')
    /** JSON object of string values. */
    .addColumn('metadata', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('organizations_pk', ['tenant_id', 'id'])
    .addUniqueConstraint('organizations_name_uq', ['tenant_id', 'name'])
    .execute();
  // Offset pages sorted by the other `sort` fields; `sort=name` uses the unique constraint.
  await db.schema.createIndex('organizations_created_idx').on('organizations').columns(['tenant_id', 'created_at', 'id']).execute();
  await db.schema
    .createIndex('organizations_display_name_idx')
    .on('organizations')
    .columns(['tenant_id', 'display_name', 'id'])
    .execute();

  // A link dies with either side, whatever deletes it (an organization, a client grant,
  // the resource server or client that takes its grants along, the tenant), in the
  // same statement, so no path can leave a link to a grant that no longer exists.
  await db.schema
    .createTable('organization_client_grants')
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('organization_id', idType(db), (c) => c.notNull())
    .addColumn('grant_id', idType(db), (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('organization_client_grants_pk', ['tenant_id', 'organization_id', 'grant_id'])
    .addForeignKeyConstraint(
      'organization_client_grants_organization_fk',
      ['tenant_id', 'organization_id'],
      'organizations',
      ['tenant_id', 'id'],
      (fk) => fk.onDelete('cascade'),
    )
    .addForeignKeyConstraint('organization_client_grants_grant_fk', ['tenant_id', 'grant_id'], 'client_grants', ['tenant_id', 'id'], (fk) =>
      fk.onDelete('cascade'),
    )
    .execute();
  // Finds a grant's links when the grant is deleted (the cascade) and GET /client-grants/{id}/organizations.
  await db.schema
    .createIndex('organization_client_grants_grant_idx')
    .on('organization_client_grants')
    .columns(['tenant_id', 'grant_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('organization_client_grants').execute();
  await db.schema.dropTable('organizations').execute();
}
