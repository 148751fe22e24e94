/** Roles, groups, and the roles assigned to groups. */
import type { Kysely } from 'kysely';
import { idType } from './0001_foundation.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('roles')
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('id', idType(db), (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('roles_pk', ['tenant_id', 'id'])
    .addUniqueConstraint('roles_name_uq', ['tenant_id', 'name'])
    .execute();

  await db.schema
    .createTable('groups')
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('id', idType(db), (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('external_id', 'text')
    .addColumn('connection_id', 'text')
    .addColumn('organization_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('groups_pk', ['tenant_id', 'id'])
    .execute();

  await db.schema
    .createTable('group_roles')
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('group_id', idType(db), (c) => c.notNull())
    .addColumn('role_id', idType(db), (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('group_roles_pk', ['tenant_id', 'group_id', 'role_id'])
    .execute();
  await db.schema.createIndex('group_roles_role_idx').on('group_roles').columns(['tenant_id', 'role_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('group_roles').execute();
  await db.schema.dropTable('groups').execute();
  await db.schema.dropTable('roles').execute();
}
