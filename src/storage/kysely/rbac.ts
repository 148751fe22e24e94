/**
 * Storage of role-based access control (migration 0011): the permissions of
 * roles and of users, users' roles, groups' roles seen from the role, and
 * group members; and what a user holds through all of them.
 *
 * A permission is a pair (API identifier, permission name). A user holds, for
 * one API, the union of
 *   - the permissions assigned to the user directly,
 *   - the permissions of the roles assigned to the user directly, and
 *   - the permissions of the roles assigned to the groups the user is a member of.
 * Removing a scope from an API does not remove the permissions that name it:
 * token issuance intersects what `effectivePermissions` returns with the
 * API's current scopes.
 *
 * Orders: ids and permission names byte-wise on both databases (their columns
 * have the "C" collation on PostgreSQL); API identifiers in each database's
 * text order, which is stable but may differ between the two.
 */
import { sql } from 'kysely';
import { atomically, type Db } from '../database.js';
import { assignLinks, chunks, lockRows, removeLinks, rowExists, type Link, type LinkResult, type Side } from '../links.js';
import type { LimitedAssignResult } from '../../domain/assignments.js';
import { ENTITY_LIMITS } from '../../domain/entity-limits.js';
import type { GroupRow } from '../../domain/groups/model.js';
import { fromStored } from '../json-columns.js';
import { countRows, fetchPage } from '../paging.js';
import type { KeysetWindow, OffsetWindow, Page, PageQuery } from '../../domain/paging.js';
import { scopeDescriptions } from '../../domain/resource-servers/model.js';
import type { RoleRow } from '../../domain/roles/model.js';
import type { PermissionRef, PermissionDetail, UserPermission, RoleUserRow, UserGroupRow, GroupMemberRow, RoleWithSources, EffectivePermission, PermissionAssignResult, RbacStore } from '../../domain/rbac/store.js';
import { isForeignKeyViolation } from '../../platform/database-errors.js';


const USER_ROLES_BY_USER: Link = { table: 'user_roles', owner: { side: 'user', column: 'user_id' }, item: { side: 'role', column: 'role_id' } };
const USER_ROLES_BY_ROLE: Link = { table: 'user_roles', owner: { side: 'role', column: 'role_id' }, item: { side: 'user', column: 'user_id' } };
const GROUP_ROLES_BY_ROLE: Link = { table: 'group_roles', owner: { side: 'role', column: 'role_id' }, item: { side: 'group', column: 'group_id' } };
const GROUP_MEMBERS: Link = { table: 'group_members', owner: { side: 'group', column: 'group_id' }, item: { side: 'user', column: 'user_id' } };

/**
 * role_permissions or user_permissions, which differ only in their owner
 * column; queries over either are typed as over role_permissions (`p`).
 */
interface PermissionTable {
  table: 'role_permissions' | 'user_permissions';
  owner: 'role_id' | 'user_id';
  side: Side;
}
const ROLE_PERMISSIONS: PermissionTable = { table: 'role_permissions', owner: 'role_id', side: 'role' };
const USER_PERMISSIONS: PermissionTable = { table: 'user_permissions', owner: 'user_id', side: 'user' };
const fromPermissions = (table: PermissionTable) => `${table.table} as p` as 'role_permissions as p';
const ownerOf = (table: PermissionTable) => `p.${table.owner}` as 'p.role_id';

const ROLE_COLUMNS = ['r.tenant_id', 'r.id', 'r.name', 'r.description', 'r.created_at'] as const;

/** Rows joined to their API's name and scopes, turned into permission details (each API's scopes parsed once). */
function withDescriptions<R extends PermissionRef & { resource_server_name: string; scopes: string }>(rows: R[]): (Omit<R, 'scopes'> & PermissionDetail)[] {
  const parsed = new Map<string, Map<string, string | undefined>>();
  return rows.map(({ scopes, ...row }) => {
    let descriptions = parsed.get(row.resource_server_identifier);
    if (!descriptions) parsed.set(row.resource_server_identifier, (descriptions = scopeDescriptions(fromStored('resource_servers', { scopes }).scopes)));
    return { ...row, description: descriptions.get(row.permission_name) };
  });
}

const pairKey = (p: PermissionRef): string => JSON.stringify([p.resource_server_identifier, p.permission_name]);

function distinctPermissions(permissions: readonly PermissionRef[]): PermissionRef[] {
  const seen = new Map<string, PermissionRef>();
  for (const p of permissions) seen.set(pairKey(p), { resource_server_identifier: p.resource_server_identifier, permission_name: p.permission_name });
  return [...seen.values()];
}

export class KyselyRbacStore implements RbacStore {
  constructor(private readonly db: Db) {}

  // --- effective permissions (token issuance) ---

  /** The ids of the roles assigned to the user directly (user_roles' key). */
  private userRoleIds(tenantId: string, userId: string) {
    return this.db.selectFrom('user_roles').select('role_id').where('tenant_id', '=', tenantId).where('user_id', '=', userId);
  }

  /** The ids of the roles assigned to the groups the user is a member of (group_members_user_idx, then group_roles' key). */
  private groupRoleIds(tenantId: string, userId: string) {
    return this.db
      .selectFrom('group_roles')
      .select('role_id')
      .where('tenant_id', '=', tenantId)
      .where('group_id', 'in', this.db.selectFrom('group_members').select('group_id').where('tenant_id', '=', tenantId).where('user_id', '=', userId));
  }

  /**
   * The three sources of a user's permissions for one API, each a query over
   * one permission table to select from. Written as IN-subqueries rather than
   * joins so that every database, with or without statistics, starts from the
   * user: user_roles and group_members by user, then the primary keys of
   * group_roles and role_permissions (tenant, role, API), never a scan of the
   * tenant's roles.
   */
  private permissionSources(tenantId: string, userId: string, resourceServerIdentifier: string) {
    const direct = this.db
      .selectFrom('user_permissions as up')
      .where('up.tenant_id', '=', tenantId)
      .where('up.user_id', '=', userId)
      .where('up.resource_server_identifier', '=', resourceServerIdentifier);
    const ofRoles = (roleIds: ReturnType<KyselyRbacStore['groupRoleIds']> | ReturnType<KyselyRbacStore['userRoleIds']>) =>
      this.db
        .selectFrom('role_permissions as rp')
        .where('rp.tenant_id', '=', tenantId)
        .where('rp.role_id', 'in', roleIds)
        .where('rp.resource_server_identifier', '=', resourceServerIdentifier);
    return { direct, viaRoles: ofRoles(this.userRoleIds(tenantId, userId)), viaGroups: ofRoles(this.groupRoleIds(tenantId, userId)) };
  }

  /**
   * The ids of the roles the user holds in one organization: assigned to them
   * as its member (organization_member_roles' key) and to their groups in it
   * (group_members_user_idx, then organization_group_roles' key).
   */
  private organizationRoleIds(tenantId: string, userId: string, organizationId: string) {
    return this.db
      .selectFrom('organization_member_roles')
      .select('role_id')
      .where('tenant_id', '=', tenantId)
      .where('organization_id', '=', organizationId)
      .where('user_id', '=', userId)
      .union(
        this.db
          .selectFrom('organization_group_roles')
          .select('role_id')
          .where('tenant_id', '=', tenantId)
          .where('organization_id', '=', organizationId)
          .where('group_id', 'in', this.db.selectFrom('group_members').select('group_id').where('tenant_id', '=', tenantId).where('user_id', '=', userId)),
      );
  }

  async effectivePermissions(tenantId: string, userId: string, resourceServerIdentifier: string, organizationId?: string): Promise<string[]> {
    const { direct, viaRoles, viaGroups } = this.permissionSources(tenantId, userId, resourceServerIdentifier);
    let query = direct.select('up.permission_name').union(viaRoles.select('rp.permission_name')).union(viaGroups.select('rp.permission_name'));
    if (organizationId !== undefined) {
      const viaOrganization = this.db
        .selectFrom('role_permissions as rp')
        .where('rp.tenant_id', '=', tenantId)
        .where('rp.role_id', 'in', this.db.selectFrom(this.organizationRoleIds(tenantId, userId, organizationId).as('o')).select('o.role_id'))
        .where('rp.resource_server_identifier', '=', resourceServerIdentifier);
      query = query.union(viaOrganization.select('rp.permission_name'));
    }
    const rows = await query.orderBy('permission_name').execute();
    return rows.map((r) => r.permission_name);
  }

  async listEffectivePermissions(
    tenantId: string,
    userId: string,
    resourceServerIdentifier: string,
    page: KeysetWindow,
  ): Promise<EffectivePermission[]> {
    const { direct, viaRoles, viaGroups } = this.permissionSources(tenantId, userId, resourceServerIdentifier);
    const sources = direct
      .select(['up.permission_name', sql<number>`1`.as('direct'), sql<number>`0`.as('via_roles')])
      .unionAll(viaRoles.select(['rp.permission_name', sql<number>`0`.as('direct'), sql<number>`1`.as('via_roles')]))
      .unionAll(viaGroups.select(['rp.permission_name', sql<number>`0`.as('direct'), sql<number>`1`.as('via_roles')]));
    let q = this.db
      .selectFrom(sources.as('s'))
      .select((eb) => ['s.permission_name', eb.fn.max('s.direct').as('direct'), eb.fn.max('s.via_roles').as('via_roles')])
      .groupBy('s.permission_name');
    if (page.after !== undefined) q = q.where('s.permission_name', '>', page.after);
    const rows = await q.orderBy('s.permission_name').limit(page.limit).execute();
    return rows.map((r) => ({ permission_name: r.permission_name, direct: Number(r.direct) === 1, viaRoles: Number(r.via_roles) === 1 }));
  }

  // --- effective roles ---

  /** The user's role ids, once per way the user holds them: directly (direct = 1) or through a group (via_groups = 1). */
  private roleSources(tenantId: string, userId: string) {
    return this.userRoleIds(tenantId, userId)
      .select([sql<number>`1`.as('direct'), sql<number>`0`.as('via_groups')])
      .unionAll(this.groupRoleIds(tenantId, userId).select([sql<number>`0`.as('direct'), sql<number>`1`.as('via_groups')]));
  }

  /** The user's roles with their sources, optionally only those carrying one permission, a keyset page by role id. */
  private async rolesWithSources(
    tenantId: string,
    userId: string,
    permission: PermissionRef | undefined,
    page: KeysetWindow,
  ): Promise<RoleWithSources[]> {
    // The user's roles first, grouped by id (a handful of rows), then each role by its key.
    let held = this.db
      .selectFrom(this.roleSources(tenantId, userId).as('s'))
      .select((eb) => ['s.role_id', eb.fn.max('s.direct').as('direct'), eb.fn.max('s.via_groups').as('via_groups')])
      .groupBy('s.role_id');
    if (permission) {
      held = held.where((eb) =>
        eb.exists(
          eb
            .selectFrom('role_permissions as rp')
            .select('rp.role_id')
            .where('rp.tenant_id', '=', tenantId)
            .whereRef('rp.role_id', '=', 's.role_id')
            .where('rp.resource_server_identifier', '=', permission.resource_server_identifier)
            .where('rp.permission_name', '=', permission.permission_name),
        ),
      );
    }
    if (page.after !== undefined) held = held.where('s.role_id', '>', page.after);
    // CROSS JOIN keeps SQLite's planner from starting at the tenant's roles (it reads a
    // CROSS JOIN in order); PostgreSQL plans it as the inner join it is.
    const rows = await this.db
      .selectFrom(held.as('h'))
      .crossJoin('roles as r')
      .where('r.tenant_id', '=', tenantId)
      .whereRef('r.id', '=', 'h.role_id')
      .select([...ROLE_COLUMNS, 'h.direct', 'h.via_groups'])
      .orderBy('h.role_id')
      .limit(page.limit)
      .execute();
    return rows.map(({ direct, via_groups, ...role }) => ({ role, direct: Number(direct) === 1, viaGroups: Number(via_groups) === 1 }));
  }

  listEffectiveRoles(tenantId: string, userId: string, page: KeysetWindow): Promise<RoleWithSources[]> {
    return this.rolesWithSources(tenantId, userId, undefined, page);
  }

  listEffectivePermissionRoles(tenantId: string, userId: string, permission: PermissionRef, page: KeysetWindow): Promise<RoleWithSources[]> {
    return this.rolesWithSources(tenantId, userId, permission, page);
  }

  async listRoleSourceGroups(tenantId: string, userId: string, roleId: string, page: KeysetWindow): Promise<GroupRow[]> {
    let q = this.db
      .selectFrom('group_members as gm')
      .innerJoin('group_roles as gr', (j) => j.onRef('gr.tenant_id', '=', 'gm.tenant_id').onRef('gr.group_id', '=', 'gm.group_id'))
      .innerJoin('groups as g', (j) => j.onRef('g.tenant_id', '=', 'gm.tenant_id').onRef('g.id', '=', 'gm.group_id'))
      .selectAll('g')
      .where('gm.tenant_id', '=', tenantId)
      .where('gm.user_id', '=', userId)
      .where('gr.role_id', '=', roleId);
    if (page.after !== undefined) q = q.where('gm.group_id', '>', page.after);
    return q.orderBy('gm.group_id').limit(page.limit).execute();
  }

  // --- permissions of roles and users ---

  private async listPermissions(table: PermissionTable, tenantId: string, ownerId: string, page: OffsetWindow) {
    const base = this.db
      .selectFrom(fromPermissions(table))
      .where('p.tenant_id', '=', tenantId)
      .where(ownerOf(table), '=', ownerId);
    const rows = await base
      .innerJoin('resource_servers as rs', (j) => j.onRef('rs.tenant_id', '=', 'p.tenant_id').onRef('rs.identifier', '=', 'p.resource_server_identifier'))
      .select(['p.resource_server_identifier', 'p.permission_name', 'rs.name as resource_server_name', 'rs.scopes'])
      .orderBy('p.resource_server_identifier')
      .orderBy('p.permission_name')
      .offset(page.offset)
      .limit(page.limit)
      .execute();
    const details = withDescriptions(rows);
    if (!page.withTotal) return { rows: details };
    return { rows: details, total: await countRows(base) };
  }

  listRolePermissions(tenantId: string, roleId: string, page: OffsetWindow): Promise<Page<PermissionDetail>> {
    return this.listPermissions(ROLE_PERMISSIONS, tenantId, roleId, page);
  }

  private async addPermissions(
    table: PermissionTable,
    tenantId: string,
    ownerId: string,
    permissions: readonly PermissionRef[],
    createdAt: string,
    limit: number,
  ): Promise<PermissionAssignResult> {
    const wanted = distinctPermissions(permissions);
    /** Whether the owner (locked) would hold more than `limit` permissions: it holds at most `limit` already, so this reads a bounded list. */
    const overLimit = async (db: Db): Promise<boolean> => {
      await lockRows(db, table.side, tenantId, [ownerId]);
      const held = await db
        .selectFrom(fromPermissions(table))
        .select(['p.resource_server_identifier', 'p.permission_name'])
        .where('p.tenant_id', '=', tenantId)
        .where(ownerOf(table), '=', ownerId)
        .execute();
      const present = new Set(held.map(pairKey));
      return present.size + wanted.filter((p) => !present.has(pairKey(p))).length > limit;
    };
    const check = async (db: Db): Promise<PermissionAssignResult> => {
      if (!(await rowExists(db, table.side, tenantId, ownerId))) return { status: 'owner_not_found' };
      const identifiers = [...new Set(wanted.map((p) => p.resource_server_identifier))];
      const scopesOf = new Map<string, Map<string, string | undefined>>();
      for (const chunk of chunks(identifiers)) {
        const apis = await db
          .selectFrom('resource_servers')
          .select(['identifier', 'scopes'])
          .where('tenant_id', '=', tenantId)
          .where('identifier', 'in', chunk)
          .execute();
        for (const api of apis) scopesOf.set(api.identifier, scopeDescriptions(fromStored('resource_servers', api).scopes));
      }
      for (const p of wanted) {
        const scopes = scopesOf.get(p.resource_server_identifier);
        if (!scopes) return { status: 'resource_server_not_found', identifier: p.resource_server_identifier };
        if (!scopes.has(p.permission_name)) {
          return { status: 'permission_not_found', identifier: p.resource_server_identifier, permissionName: p.permission_name };
        }
      }
      return { status: 'assigned' };
    };
    try {
      return await atomically(this.db, async (trx) => {
        const checked = await check(trx);
        if (checked.status !== 'assigned') return checked;
        if (await overLimit(trx)) return { status: 'limit_exceeded' };
        for (const chunk of chunks(wanted)) {
          await trx
            .insertInto(table.table)
            .values(chunk.map((p) => ({ tenant_id: tenantId, [table.owner]: ownerId, ...p, created_at: createdAt }) as never))
            .onConflict((oc) => oc.columns(['tenant_id', table.owner, 'resource_server_identifier', 'permission_name'] as never).doNothing())
            .execute();
        }
        return checked;
      });
    } catch (error) {
      // The owner or an API was deleted by a concurrent transaction after the checks;
      // the foreign keys refused the insert and the transaction rolled back.
      if (!isForeignKeyViolation(error)) throw error;
      const checked = await check(this.db);
      return checked.status === 'assigned' ? { status: 'owner_not_found' } : checked;
    }
  }

  private removePermissions(table: PermissionTable, tenantId: string, ownerId: string, permissions: readonly PermissionRef[]): Promise<boolean> {
    return atomically(this.db, async (trx) => {
      if (!(await rowExists(trx, table.side, tenantId, ownerId))) return false;
      for (const chunk of chunks(distinctPermissions(permissions))) {
        await trx
          .deleteFrom(fromPermissions(table))
          .where('p.tenant_id', '=', tenantId)
          .where(ownerOf(table), '=', ownerId)
          .where((eb) =>
            eb.or(
              chunk.map((p) =>
                eb.and([eb('p.resource_server_identifier', '=', p.resource_server_identifier), eb('p.permission_name', '=', p.permission_name)]),
              ),
            ),
          )
          .execute();
      }
      return true;
    });
  }

  addRolePermissions(tenantId: string, roleId: string, permissions: readonly PermissionRef[], createdAt: string): Promise<PermissionAssignResult> {
    return this.addPermissions(ROLE_PERMISSIONS, tenantId, roleId, permissions, createdAt, ENTITY_LIMITS.permissionsPerRole);
  }

  removeRolePermissions(tenantId: string, roleId: string, permissions: readonly PermissionRef[]): Promise<boolean> {
    return this.removePermissions(ROLE_PERMISSIONS, tenantId, roleId, permissions);
  }

  addUserPermissions(tenantId: string, userId: string, permissions: readonly PermissionRef[], createdAt: string): Promise<PermissionAssignResult> {
    return this.addPermissions(USER_PERMISSIONS, tenantId, userId, permissions, createdAt, ENTITY_LIMITS.permissionsPerUser);
  }

  removeUserPermissions(tenantId: string, userId: string, permissions: readonly PermissionRef[]): Promise<boolean> {
    return this.removePermissions(USER_PERMISSIONS, tenantId, userId, permissions);
  }

  /**
   * The permissions of the roles assigned to the user directly, for every API:
   * from the user's roles (user_roles' key) to their permissions (role_permissions'
   * key). CROSS JOIN keeps SQLite's planner in that order, instead of starting at
   * the tenant's permissions; PostgreSQL plans it as the inner join it is.
   */
  private userRolePermissions(tenantId: string, userId: string) {
    return this.db
      .selectFrom('user_roles as ur')
      .crossJoin('role_permissions as rp')
      .where('ur.tenant_id', '=', tenantId)
      .where('ur.user_id', '=', userId)
      .whereRef('rp.tenant_id', '=', 'ur.tenant_id')
      .whereRef('rp.role_id', '=', 'ur.role_id');
  }

  async listUserPermissions(tenantId: string, userId: string, page: OffsetWindow): Promise<Page<UserPermission>> {
    // The user's direct permissions and those of the roles assigned to the user directly, each pair once.
    const pairs = this.db
      .selectFrom('user_permissions')
      .select(['resource_server_identifier', 'permission_name'])
      .where('tenant_id', '=', tenantId)
      .where('user_id', '=', userId)
      .union(this.userRolePermissions(tenantId, userId).select(['rp.resource_server_identifier', 'rp.permission_name']));
    const rows = await this.db
      .selectFrom(pairs.as('p'))
      .innerJoin('resource_servers as rs', (j) => j.on('rs.tenant_id', '=', tenantId).onRef('rs.identifier', '=', 'p.resource_server_identifier'))
      .select(['p.resource_server_identifier', 'p.permission_name', 'rs.name as resource_server_name', 'rs.scopes'])
      .orderBy('p.resource_server_identifier')
      .orderBy('p.permission_name')
      .offset(page.offset)
      .limit(page.limit)
      .execute();

    // The sources of the page's permissions: direct assignments and the roles carrying them.
    const identifiers = [...new Set(rows.map((r) => r.resource_server_identifier))];
    const direct = new Set<string>();
    const roles = new Map<string, { id: string; name: string }[]>();
    if (identifiers.length > 0) {
      const directRows = await this.db
        .selectFrom('user_permissions')
        .select(['resource_server_identifier', 'permission_name'])
        .where('tenant_id', '=', tenantId)
        .where('user_id', '=', userId)
        .where('resource_server_identifier', 'in', identifiers)
        .execute();
      for (const row of directRows) direct.add(pairKey(row));
      const roleRows = await this.userRolePermissions(tenantId, userId)
        .innerJoin('roles as r', (j) => j.onRef('r.tenant_id', '=', 'rp.tenant_id').onRef('r.id', '=', 'rp.role_id'))
        .select(['rp.resource_server_identifier', 'rp.permission_name', 'r.id', 'r.name'])
        .where('rp.resource_server_identifier', 'in', identifiers)
        .orderBy('r.id')
        .execute();
      for (const row of roleRows) {
        const key = pairKey(row);
        roles.set(key, [...(roles.get(key) ?? []), { id: row.id, name: row.name }]);
      }
    }
    const permissions = withDescriptions(rows).map((p) => ({ ...p, direct: direct.has(pairKey(p)), roles: roles.get(pairKey(p)) ?? [] }));
    if (!page.withTotal) return { rows: permissions };
    return { rows: permissions, total: await countRows(this.db.selectFrom(pairs.as('p'))) };
  }

  // --- users' roles, roles' users and groups ---

  listUserRoles(tenantId: string, userId: string, page: OffsetWindow): Promise<Page<RoleRow>> {
    const base = this.db.selectFrom('user_roles as ur').where('ur.tenant_id', '=', tenantId).where('ur.user_id', '=', userId);
    return fetchPage(
      base.innerJoin('roles as r', (j) => j.onRef('r.tenant_id', '=', 'ur.tenant_id').onRef('r.id', '=', 'ur.role_id')),
      (q) => q.select([...ROLE_COLUMNS]),
      'ur.role_id',
      { kind: 'offset', ...page },
      { count: () => countRows(base) },
    );
  }

  assignUserRoles(tenantId: string, userId: string, roleIds: readonly string[], createdAt: string): Promise<LimitedAssignResult> {
    return assignLinks(this.db, USER_ROLES_BY_USER, tenantId, userId, roleIds, createdAt, { per: 'owner', max: ENTITY_LIMITS.rolesPerUser });
  }

  removeUserRoles(tenantId: string, userId: string, roleIds: readonly string[]): Promise<boolean> {
    return removeLinks(this.db, USER_ROLES_BY_USER, tenantId, userId, roleIds);
  }

  listRoleUsers(tenantId: string, roleId: string, page: PageQuery): Promise<Page<RoleUserRow>> {
    const base = this.db.selectFrom('user_roles as ur').where('ur.tenant_id', '=', tenantId).where('ur.role_id', '=', roleId);
    return fetchPage(
      base.innerJoin('users as u', (j) => j.onRef('u.tenant_id', '=', 'ur.tenant_id').onRef('u.user_id', '=', 'ur.user_id')),
      (q) => q.select(['u.user_id', 'u.email', 'u.picture', 'u.name']),
      'ur.user_id',
      page,
      { count: () => countRows(base) },
    );
  }

  assignRoleUsers(tenantId: string, roleId: string, userIds: readonly string[], createdAt: string): Promise<LimitedAssignResult> {
    return assignLinks(this.db, USER_ROLES_BY_ROLE, tenantId, roleId, userIds, createdAt, { per: 'item', max: ENTITY_LIMITS.rolesPerUser });
  }

  async listRoleGroups(tenantId: string, roleId: string, page: KeysetWindow): Promise<GroupRow[]> {
    const { rows } = await fetchPage(
      this.db
        .selectFrom('group_roles as gr')
        .innerJoin('groups as g', (j) => j.onRef('g.tenant_id', '=', 'gr.tenant_id').onRef('g.id', '=', 'gr.group_id'))
        .where('gr.tenant_id', '=', tenantId)
        .where('gr.role_id', '=', roleId),
      (q) => q.selectAll('g'),
      'gr.group_id',
      { kind: 'keyset', ...page },
    );
    return rows;
  }

  assignRoleGroups(tenantId: string, roleId: string, groupIds: readonly string[], createdAt: string): Promise<LinkResult> {
    return assignLinks(this.db, GROUP_ROLES_BY_ROLE, tenantId, roleId, groupIds, createdAt);
  }

  removeRoleGroups(tenantId: string, roleId: string, groupIds: readonly string[]): Promise<boolean> {
    return removeLinks(this.db, GROUP_ROLES_BY_ROLE, tenantId, roleId, groupIds);
  }

  // --- group members ---

  listUserGroups(tenantId: string, userId: string, page: PageQuery): Promise<Page<UserGroupRow>> {
    const base = this.db.selectFrom('group_members as gm').where('gm.tenant_id', '=', tenantId).where('gm.user_id', '=', userId);
    return fetchPage(
      base.innerJoin('groups as g', (j) => j.onRef('g.tenant_id', '=', 'gm.tenant_id').onRef('g.id', '=', 'gm.group_id')),
      (q) => q.selectAll('g').select('gm.created_at as membership_created_at'),
      'gm.group_id',
      page,
      { count: () => countRows(base) },
    );
  }

  async listGroupMembers(tenantId: string, groupId: string, page: KeysetWindow): Promise<GroupMemberRow[]> {
    const { rows } = await fetchPage(
      this.db.selectFrom('group_members as gm').where('gm.tenant_id', '=', tenantId).where('gm.group_id', '=', groupId),
      (q) => q.select(['gm.user_id', 'gm.created_at']),
      'gm.user_id',
      { kind: 'keyset', ...page },
    );
    return rows;
  }

  addGroupMembers(tenantId: string, groupId: string, userIds: readonly string[], createdAt: string): Promise<LinkResult> {
    return assignLinks(this.db, GROUP_MEMBERS, tenantId, groupId, userIds, createdAt);
  }

  removeGroupMembers(tenantId: string, groupId: string, userIds: readonly string[]): Promise<boolean> {
    return removeLinks(this.db, GROUP_MEMBERS, tenantId, groupId, userIds);
  }
}
