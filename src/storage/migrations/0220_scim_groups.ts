/**
 * SCIM groups, deprovisioning, and roles of groups in an organization:
 * - `scim_configurations.deprovisioning`: what a directory's DELETE /Users/{id}
 *   does to the user, `delete` (the default, as before) or `block`.
 * - indexes on `groups` for the filters the SCIM endpoint answers from an index
 *   (`displayName eq`, `externalId eq`, within one connection) and for its
 *   list of a connection's groups.
 * - `organization_group_roles`: the roles a group holds in one organization
 *   (`/organizations/{id}/groups/{group_id}/roles`), given to the group's
 *   members in that organization's logins only; goes with the organization, the
 *   group or the role.
 */
import type { Kysely } from 'kysely';
import { idType } from './0001_foundation.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('scim_configurations').addColumn('deprovisioning', 'text', (c) => c.notNull().defaultTo('delete')).execute();
  await db.schema.createIndex('groups_connection_name_idx').on('groups').columns(['tenant_id', 'connection_id', 'name']).execute();
  await db.schema.createIndex('groups_connection_external_id_idx').on('groups').columns(['tenant_id', 'connection_id', 'external_id']).execute();
  await db.schema
    .createTable('organization_group_roles')
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('organization_id', idType(db), (c) => c.notNull())
    .addColumn('group_id', idType(db), (c) => c.notNull())
    .addColumn('role_id', idType(db), (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('organization_group_roles_pk', ['tenant_id', 'organization_id', 'group_id', 'role_id'])
    .addForeignKeyConstraint('organization_group_roles_organization_fk', ['tenant_id', 'organization_id'], 'organizations', ['tenant_id', 'id'], (fk) => fk.onDelete('cascade'))
    .addForeignKeyConstraint('organization_group_roles_group_fk', ['tenant_id', 'group_id'], 'groups', ['tenant_id', 'id'], (fk) => fk.onDelete('cascade'))
    .addForeignKeyConstraint('organization_group_roles_role_fk', ['tenant_id', 'role_id'], 'roles', ['tenant_id', 'id'], (fk) => fk.onDelete('cascade'))
    .execute();
  // A login's permissions start from the user's groups: (organization, group) is the key's prefix.
  await db.schema.createIndex('organization_group_roles_group_idx').on('organization_group_roles').columns(['tenant_id', 'group_id']).execute();
  await db.schema.createIndex('organization_group_roles_role_idx').on('organization_group_roles').columns(['tenant_id', 'role_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('organization_group_roles').execute();
  await db.schema.dropIndex('groups_connection_external_id_idx').execute();
  await db.schema.dropIndex('groups_connection_name_idx').execute();
  await db.schema.alterTable('scim_configurations').dropColumn('deprovisioning').execute();
}
