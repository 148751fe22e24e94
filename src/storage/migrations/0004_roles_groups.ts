/** Roles, groups, and the roles assigned to groups. */
import { sql, type Kysely } from 'kysely';
import { idType } from './0001_foundation.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('roles')
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('id', idType(db), (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
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
  // A group's name is unique within its connection (the service's Group schema), its
  // organization, or, for tenant groups (neither), within the tenant. NULLs never
  // collide in a unique index, hence the coalesce.
  await sql`create unique index ${sql.id('groups_name_uq')} on ${sql.table('groups')} (tenant_id, coalesce(connection_id, ''), coalesce(organization_id, ''), name)`.execute(
    db,
  );

  // The foreign keys keep assignments from outliving either side even when a role or
  // group is deleted while an assignment is being written (the stores also delete
  // assignments explicitly, in the same transaction as the role or group).
  await db.schema
    .createTable('group_roles')
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('group_id', idType(db), (c) => c.notNull())
    .addColumn('role_id', idType(db), (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('group_roles_pk', ['tenant_id', 'group_id', 'role_id'])
    .addForeignKeyConstraint('group_roles_group_fk', ['tenant_id', 'group_id'], 'groups', ['tenant_id', 'id'], (fk) => fk.onDelete('cascade'))
    .addForeignKeyConstraint('group_roles_role_fk', ['tenant_id', 'role_id'], 'roles', ['tenant_id', 'id'], (fk) => fk.onDelete('cascade'))
    .execute();
  await db.schema.createIndex('group_roles_role_idx').on('group_roles').columns(['tenant_id', 'role_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('group_roles').execute();
  await db.schema.dropTable('groups').execute();
  await db.schema.dropTable('roles').execute();
}
