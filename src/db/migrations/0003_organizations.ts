/** Organizations and the client grants linked to them (read by GET /clients?q=client_grant.organization_id:…). */
import type { Kysely } from 'kysely';
import { idType } from './0001_foundation.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('organizations')
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('id', idType(db), (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('display_name', 'text')
    /** JSON object or null. */
    .addColumn('branding', 'text')
    /** JSON object of string values. */
    .addColumn('metadata', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('organizations_pk', ['tenant_id', 'id'])
    .addUniqueConstraint('organizations_name_uq', ['tenant_id', 'name'])
    .execute();

  await db.schema
    .createTable('organization_client_grants')
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('organization_id', idType(db), (c) => c.notNull())
    .addColumn('grant_id', idType(db), (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('organization_client_grants_pk', ['tenant_id', 'organization_id', 'grant_id'])
    .execute();
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
