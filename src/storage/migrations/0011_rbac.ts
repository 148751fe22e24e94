/**
 * Role-based access control (issue: authorise users by roles): the permissions
 * of roles and of users, users' roles, and group members.
 *
 * A permission is a pair (API identifier, permission name), the name being one
 * of the API's scopes when it is assigned. Removing a scope from an API leaves
 * the permissions that name it in place: token issuance intersects a user's
 * effective permissions with the API's current scopes.
 *
 * Every assignment goes with either of its sides: cascading foreign keys, as
 * group_roles has since 0004, keep a row from outliving its role, user, group
 * or API even when a side is deleted while the row is being written (the
 * stores also delete assignments explicitly, in the same transaction as the
 * side). Permissions reference the API by (tenant_id, identifier), which is
 * unique (resource_servers_identifier_uq) and never changes.
 *
 * Indexes, one per lookup direction:
 * - user → direct permissions for an API, user → roles, group → members,
 *   role → permissions for an API: the primary keys;
 * - role → users (GET /roles/{id}/users, in user_id order): user_roles_role_idx;
 * - role → groups (GET /roles/{id}/groups, in group id order):
 *   group_roles_role_group_idx, which replaces 0004's group_roles_role_idx
 *   (its prefix);
 * - user → groups (GET /users/{id}/groups, effective roles and permissions):
 *   group_members_user_idx;
 * - API → role and user permissions (deleting an API): *_resource_server_idx;
 * - email → users across connections (GET /users-by-email): users_email_lower_idx.
 *
 * Data: Gatehouse's own scopes for its POST and DELETE /groups/{id}/members,
 * `create:group_members` and `delete:group_members`, are added to the
 * Management API of tenants created before, and to its bootstrap admin
 * client's grant, which holds every Management API scope (new tenants get
 * both from MANAGEMENT_SCOPES).
 */
import type { Kysely } from 'kysely';
import { idType } from './0001_foundation.js';

/** One side of an assignment: its column here, and the table and key it references. */
interface Side {
  column: 'user_id' | 'role_id' | 'group_id';
  references: 'users' | 'roles' | 'groups';
  key: 'id' | 'user_id';
}

/**
 * role_permissions and user_permissions: (owner, API identifier, permission
 * name) triples, going with their owner and with their API.
 */
async function createPermissionTable(db: Kysely<unknown>, table: 'role_permissions' | 'user_permissions', owner: Side): Promise<void> {
  await db.schema
    .createTable(table)
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn(owner.column, idType(db), (c) => c.notNull())
    /** The API's `identifier` (its audience), the type of resource_servers.identifier. */
    .addColumn('resource_server_identifier', 'text', (c) => c.notNull())
    /** Byte-wise order on both databases, for keyset pages of permission names. */
    .addColumn('permission_name', idType(db), (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint(`${table}_pk`, ['tenant_id', owner.column, 'resource_server_identifier', 'permission_name'])
    .addForeignKeyConstraint(`${table}_owner_fk`, ['tenant_id', owner.column], owner.references, ['tenant_id', owner.key], (fk) =>
      fk.onDelete('cascade'),
    )
    .addForeignKeyConstraint(
      `${table}_resource_server_fk`,
      ['tenant_id', 'resource_server_identifier'],
      'resource_servers',
      ['tenant_id', 'identifier'],
      (fk) => fk.onDelete('cascade'),
    )
    .execute();
  await db.schema.createIndex(`${table}_resource_server_idx`).on(table).columns(['tenant_id', 'resource_server_identifier']).execute();
}

/**
 * user_roles and group_members: (first, second) pairs, keyed in that order,
 * with an index the other way round, going with either side.
 */
async function createLinkTable(db: Kysely<unknown>, table: 'user_roles' | 'group_members', first: Side, second: Side): Promise<void> {
  let builder = db.schema
    .createTable(table)
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn(first.column, idType(db), (c) => c.notNull())
    .addColumn(second.column, idType(db), (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint(`${table}_pk`, ['tenant_id', first.column, second.column]);
  for (const side of [first, second]) {
    builder = builder.addForeignKeyConstraint(`${table}_${side.references}_fk`, ['tenant_id', side.column], side.references, ['tenant_id', side.key], (fk) =>
      fk.onDelete('cascade'),
    );
  }
  await builder.execute();
  await db.schema.createIndex(`${table}_${second.column.replace('_id', '')}_idx`).on(table).columns(['tenant_id', second.column, first.column]).execute();
}

/** The scopes this migration adds, with the descriptions TenantService gives new tenants. */
const GROUP_MEMBER_SCOPES = [
  { value: 'create:group_members', description: 'Create Group Members' },
  { value: 'delete:group_members', description: 'Delete Group Members' },
] as const;

function parseArray(json: string): unknown[] {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value : [];
  } catch {
    return [];
  }
}

/**
 * Adds the group-member scopes to each tenant's Management API (the system
 * resource server for `https://{domain}/api/v2/`) and to the grant of the
 * tenant's admin client for it, when that grant holds `create:groups` and
 * `delete:groups` (it was created with every scope); other grants are left
 * alone. Idempotent. Exported for its test.
 */
export async function addGroupMemberScopes(db: Kysely<unknown>): Promise<void> {
  // Plain rows: a migration must not depend on the application's current types.
  const untyped = db as Kysely<any>;
  const tenants = (await untyped.selectFrom('tenants').select(['id', 'domain', 'settings']).execute()) as { id: string; domain: string; settings: string }[];
  for (const tenant of tenants) {
    const audience = `https://${tenant.domain}/api/v2/`;
    const api = (await untyped
      .selectFrom('resource_servers')
      .select(['id', 'scopes'])
      .where('tenant_id', '=', tenant.id)
      .where('identifier', '=', audience)
      .where('is_system', '=', 1)
      .executeTakeFirst()) as { id: string; scopes: string } | undefined;
    if (api) {
      const scopes = parseArray(api.scopes) as { value?: unknown }[];
      const missing = GROUP_MEMBER_SCOPES.filter((s) => !scopes.some((existing) => existing?.value === s.value));
      if (missing.length > 0) {
        await untyped
          .updateTable('resource_servers')
          .set({ scopes: JSON.stringify([...scopes, ...missing]) })
          .where('tenant_id', '=', tenant.id)
          .where('id', '=', api.id)
          .execute();
      }
    }
    let adminClientId: unknown;
    try {
      adminClientId = (JSON.parse(tenant.settings) as { admin_client_id?: unknown }).admin_client_id;
    } catch {
      adminClientId = undefined;
    }
    if (typeof adminClientId !== 'string') continue;
    const grants = (await untyped
      .selectFrom('client_grants')
      .select(['id', 'scope'])
      .where('tenant_id', '=', tenant.id)
      .where('client_id', '=', adminClientId)
      .where('audience', '=', audience)
      .execute()) as { id: string; scope: string }[];
    for (const grant of grants) {
      const scope = parseArray(grant.scope);
      if (!scope.includes('create:groups') || !scope.includes('delete:groups')) continue;
      const missing = GROUP_MEMBER_SCOPES.map((s) => s.value).filter((value) => !scope.includes(value));
      if (missing.length === 0) continue;
      await untyped
        .updateTable('client_grants')
        .set({ scope: JSON.stringify([...scope, ...missing]) })
        .where('tenant_id', '=', tenant.id)
        .where('id', '=', grant.id)
        .execute();
    }
  }
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await createPermissionTable(db, 'role_permissions', { column: 'role_id', references: 'roles', key: 'id' });
  await createPermissionTable(db, 'user_permissions', { column: 'user_id', references: 'users', key: 'user_id' });

  // A user's roles (by the primary key) and a role's users (user_roles_role_idx, in user_id order).
  await createLinkTable(db, 'user_roles', { column: 'user_id', references: 'users', key: 'user_id' }, { column: 'role_id', references: 'roles', key: 'id' });
  // A group's members (by the primary key) and a user's groups (group_members_user_idx).
  await createLinkTable(db, 'group_members', { column: 'group_id', references: 'groups', key: 'id' }, { column: 'user_id', references: 'users', key: 'user_id' });

  await db.schema.createIndex('group_roles_role_group_idx').on('group_roles').columns(['tenant_id', 'role_id', 'group_id']).execute();
  await db.schema.dropIndex('group_roles_role_idx').execute();

  await db.schema.createIndex('users_email_lower_idx').on('users').columns(['tenant_id', 'email_lower']).execute();

  await addGroupMemberScopes(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('users_email_lower_idx').execute();
  await db.schema.createIndex('group_roles_role_idx').on('group_roles').columns(['tenant_id', 'role_id']).execute();
  await db.schema.dropIndex('group_roles_role_group_idx').execute();
  for (const table of ['group_members', 'user_permissions', 'user_roles', 'role_permissions']) {
    await db.schema.dropTable(table).execute();
  }
}
