/**
 * Business rules of role-based access control behind the Management API
 * routes under /roles/{id}/…, /users/{id}/… and /groups/{id}/members.
 *
 * - The role, user or group named in the path must exist: 404 in the
 *   service's words ("The role does not exist.", "The user does not exist." /
 *   inexistent_user, "Group not found." / inexistent_group).
 * - Assignments are all or nothing: an id in the body that names nothing
 *   refuses the whole request with the 404 of what it names, and nothing
 *   changes. Repeating an assignment is not an error.
 * - Entity limits (src/domain/entity-limits.ts): permissions per role and per
 *   user, roles per user (assigned from either side); a write that would pass
 *   one is refused whole (src/management/entity-limits.ts).
 * - Removals are idempotent: removing what is not assigned, including ids
 *   that name nothing, is not an error (the end state the caller asked for
 *   holds), as DELETE /groups/{id}/roles already does.
 * - A permission must name an API of the tenant by identifier and one of that
 *   API's scopes. Removing a scope from an API later leaves the permission
 *   assigned; token issuance intersects effective permissions with the API's
 *   current scopes. Deleting the API removes the permissions.
 *
 * Effective permissions are read per token by the token endpoint, not
 * cached, so these writes need no cache invalidation.
 */
import { groupFromRow, type Group, type GroupRow } from '../../domain/groups/model.js';
import { managementErrors } from '../../platform/http/errors.js';
import type { AssignResult as LinkResult, LimitedAssignResult } from '../../domain/assignments.js';
import { entityLimitRefusals } from '../entity-limits.js';
import { scopeDescriptions } from '../../domain/resource-servers/model.js';
import { roleFromRow, type Role, type RoleRow } from '../../domain/roles/model.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { selectFields, type FieldSelection } from '../fields.js';
import { groupNotFound } from '../groups/service.js';
import { checkpointPage, checkpointPaging, offsetList, offsetPaging, offsetWindow, pagedList, type CheckpointList, type OffsetList } from '../lists.js';
import { parsePaging, type PagingInput } from '../paging.js';
import { roleNotFound } from '../roles/service.js';
import { userNotFound } from '../users/service.js';
import { type UserStore } from '../../domain/users/store.js';
import { type RoleStore } from '../../domain/roles/store.js';
import { type PermissionAssignResult, type PermissionDetail, type PermissionRef, type RbacStore, type RoleWithSources } from '../../domain/rbac/store.js';
import { type GroupStore } from '../../domain/groups/store.js';
import type { AppContext } from '../../domain/context.js';
import { isoAt } from '../../platform/clock.js';

/**
 * An identifier that is not an API of the tenant. The wording is the service's
 * as a client printed it (auth0/auth0-cli issue #348: `404 Not Found: The
 * resource server does not exist: ''`, for a POST /roles/{id}/permissions
 * naming an empty identifier); the errorCode is not recorded, Gatehouse uses
 * the one of the service's other "resource server does not exist" 404.
 */
const resourceServerNotFound = (identifier: string) =>
  managementErrors.notFound(`The resource server does not exist: '${identifier}'`, 'inexistent_resource_server');
/**
 * A permission name that is not one of the API's scopes. UNCONFIRMED: no
 * recording of the service's answer was found; this is a 400 worded after the
 * message above, with the code of the service's other payload refusals.
 */
const permissionNotFound = (identifier: string, name: string) =>
  managementErrors.invalidBody(`Permission '${name}' does not exist on resource server '${identifier}'`);

/** Checkpoints are sealed for one list of one owner, so that a `next` cannot be replayed against another. */
const checkpointScopes = {
  roleUsers: (tenant: Tenant, roleId: string) => `${tenant.id}:roles:${roleId}:users`,
  roleGroups: (tenant: Tenant, roleId: string) => `${tenant.id}:roles:${roleId}:groups`,
  userGroups: (tenant: Tenant, userId: string) => `${tenant.id}:users:${userId}:groups`,
  effectiveRoles: (tenant: Tenant, userId: string) => `${tenant.id}:users:${userId}:effective-roles`,
  roleSourceGroups: (tenant: Tenant, userId: string, roleId: string) => `${tenant.id}:users:${userId}:effective-roles:${roleId}:groups`,
  effectivePermissions: (tenant: Tenant, userId: string, identifier: string) =>
    `${tenant.id}:users:${userId}:effective-permissions:${JSON.stringify(identifier)}`,
  permissionRoles: (tenant: Tenant, userId: string, permission: PermissionRef) =>
    `${tenant.id}:users:${userId}:effective-permissions:${JSON.stringify([permission.resource_server_identifier, permission.permission_name])}:roles`,
  groupMembers: (tenant: Tenant, groupId: string) => `${tenant.id}:groups:${groupId}:members`,
};

export interface ApiPermission {
  permission_name: string;
  description?: string;
  resource_server_name: string;
  resource_server_identifier: string;
}

export interface PermissionSource {
  source_id: string;
  source_name: string;
  source_type: 'DIRECT' | 'ROLE';
}

export type UserApiPermission = ApiPermission & { sources: PermissionSource[] };
export type EffectiveApiPermission = ApiPermission & { sources: ('direct' | 'roles')[] };
export type RoleWithSourcesApi = Role & { sources: ('direct' | 'groups')[] };

export interface RoleUser {
  user_id: string;
  email?: string;
  picture?: string;
  name?: string;
}

export interface GroupMember {
  id: string;
  member_type: 'user';
  type: 'connection' | 'organization' | 'tenant';
  connection_id?: string;
  created_at: string;
}

export type UserGroup = Group & { membership_created_at: string };

/** The paging parameters of lists that offer only offsets, and of those that offer only checkpoints. */
export type OffsetInput = Pick<PagingInput, 'page' | 'per_page' | 'include_totals'>;
export type CheckpointInput = Pick<PagingInput, 'from' | 'take'>;

/** The recorded shape: description only when the API's scope has one. */
function apiPermission(p: PermissionDetail): ApiPermission {
  return {
    permission_name: p.permission_name,
    ...(p.description !== undefined && { description: p.description }),
    resource_server_name: p.resource_server_name,
    resource_server_identifier: p.resource_server_identifier,
  };
}

/** Unset members are left out rather than sent as null: the document types them as strings. */
function roleUser(row: { user_id: string; email: string | null; picture: string | null; name: string | null }): RoleUser {
  return {
    user_id: row.user_id,
    ...(row.email !== null && { email: row.email }),
    ...(row.picture !== null && { picture: row.picture }),
    ...(row.name !== null && { name: row.name }),
  };
}

function roleWithSources(r: RoleWithSources): RoleWithSourcesApi {
  const sources: ('direct' | 'groups')[] = [];
  if (r.direct) sources.push('direct');
  if (r.viaGroups) sources.push('groups');
  return { ...roleFromRow(r.role), sources };
}

/** A group's kind, as its members are described: from a connection, an organization, or the tenant. */
function groupType(group: GroupRow): GroupMember['type'] {
  if (group.connection_id !== null) return 'connection';
  if (group.organization_id !== null) return 'organization';
  return 'tenant';
}

/** Members of a role reachable by offset paging (the service's rule for GET /roles/{id}/users). */
const ROLE_USERS_OFFSET_LIMIT = 1000;

export class RbacService {
  readonly rbac: RbacStore;
  private readonly roles: RoleStore;
  private readonly users: UserStore;
  private readonly groups: GroupStore;

  constructor(private readonly ctx: AppContext) {
    this.rbac = ctx.stores.rbac;
    this.roles = ctx.stores.roles;
    this.users = ctx.stores.users;
    this.groups = ctx.stores.groups;
  }

  private now(): string {
    return isoAt(this.ctx.now());
  }

  /** Offset or checkpoint paging, checkpoints opened for `scope` (an invalid `from` is a 400). */
  private paging(query: PagingInput, scope: string) {
    return parsePaging(query, this.ctx.box, scope, this.ctx.now());
  }

  private async requireRole(tenant: Tenant, roleId: string): Promise<RoleRow> {
    const role = await this.roles.get(tenant.id, roleId);
    if (!role) throw roleNotFound();
    return role;
  }

  private async requireUser(tenant: Tenant, userId: string): Promise<void> {
    if (!(await this.users.get(tenant.id, userId))) throw userNotFound();
  }

  private async requireGroup(tenant: Tenant, groupId: string): Promise<GroupRow> {
    const group = await this.groups.get(tenant.id, groupId);
    if (!group) throw groupNotFound();
    return group;
  }

  /** Turns an all-or-nothing assignment's refusal into the 404 of what was missing. */
  private static linked(result: LinkResult, ownerNotFound: () => Error, itemNotFound: () => Error): void {
    if (result.status === 'owner_not_found') throw ownerNotFound();
    if (result.status === 'item_not_found') throw itemNotFound();
  }

  /** As `linked`, for an assignment under an entity limit: its refusal names the row that would pass it. */
  private static linkedWithin(result: LimitedAssignResult, ownerNotFound: () => Error, itemNotFound: () => Error, overLimit: (id: string) => Error): void {
    if (result.status === 'limit_exceeded') throw overLimit(result.id);
    RbacService.linked(result, ownerNotFound, itemNotFound);
  }

  private static permissionsAdded(result: PermissionAssignResult, ownerNotFound: () => Error, overLimit: () => Error): void {
    if (result.status === 'owner_not_found') throw ownerNotFound();
    if (result.status === 'limit_exceeded') throw overLimit();
    if (result.status === 'resource_server_not_found') throw resourceServerNotFound(result.identifier);
    if (result.status === 'permission_not_found') throw permissionNotFound(result.identifier, result.permissionName);
  }

  // --- /roles/{id}/permissions ---

  async listRolePermissions(tenant: Tenant, roleId: string, query: OffsetInput): Promise<OffsetList<'permissions', ApiPermission>> {
    const page = offsetPaging(query);
    await this.requireRole(tenant, roleId);
    const { rows, total } = await this.rbac.listRolePermissions(tenant.id, roleId, offsetWindow(page));
    return offsetList('permissions', rows.map(apiPermission), page, total);
  }

  async addRolePermissions(tenant: Tenant, roleId: string, permissions: readonly PermissionRef[]): Promise<void> {
    RbacService.permissionsAdded(await this.rbac.addRolePermissions(tenant.id, roleId, permissions, this.now()), roleNotFound, entityLimitRefusals.permissionsPerRole);
  }

  async removeRolePermissions(tenant: Tenant, roleId: string, permissions: readonly PermissionRef[]): Promise<void> {
    if (!(await this.rbac.removeRolePermissions(tenant.id, roleId, permissions))) throw roleNotFound();
  }

  // --- /roles/{id}/users ---

  /** Offset or checkpoint paging, by user_id; users with the role directly (not through groups: see /roles/{id}/groups). */
  async listRoleUsers(tenant: Tenant, roleId: string, query: PagingInput): Promise<OffsetList<'users', RoleUser> | CheckpointList<'users', RoleUser>> {
    const scope = checkpointScopes.roleUsers(tenant, roleId);
    const paging = this.paging(query, scope);
    // The service reaches only the first 1000 members by offset, and says which paging does more.
    if (paging.kind === 'offset' && paging.page * paging.perPage + paging.perPage > ROLE_USERS_OFFSET_LIMIT) {
      throw managementErrors.checkpointPagingRequired(ROLE_USERS_OFFSET_LIMIT);
    }
    await this.requireRole(tenant, roleId);
    return pagedList(
      this.ctx,
      scope,
      'users',
      paging,
      (page) => this.rbac.listRoleUsers(tenant.id, roleId, page),
      (row) => row.user_id,
      roleUser,
    );
  }

  async assignRoleUsers(tenant: Tenant, roleId: string, userIds: readonly string[]): Promise<void> {
    RbacService.linkedWithin(await this.rbac.assignRoleUsers(tenant.id, roleId, userIds, this.now()), roleNotFound, userNotFound, entityLimitRefusals.rolesPerUser);
  }

  // --- /roles/{id}/groups ---

  async listRoleGroups(tenant: Tenant, roleId: string, query: CheckpointInput): Promise<CheckpointList<'groups', Group>> {
    const scope = checkpointScopes.roleGroups(tenant, roleId);
    const page = checkpointPaging(this.ctx, query, scope);
    await this.requireRole(tenant, roleId);
    return checkpointPage(
      this.ctx,
      scope,
      'groups',
      page,
      (window) => this.rbac.listRoleGroups(tenant.id, roleId, window),
      (row) => row.id,
      (row) => groupFromRow(row, tenant.name),
    );
  }

  async assignRoleGroups(tenant: Tenant, roleId: string, groupIds: readonly string[]): Promise<void> {
    RbacService.linked(await this.rbac.assignRoleGroups(tenant.id, roleId, groupIds, this.now()), roleNotFound, groupNotFound);
  }

  async removeRoleGroups(tenant: Tenant, roleId: string, groupIds: readonly string[]): Promise<void> {
    if (!(await this.rbac.removeRoleGroups(tenant.id, roleId, groupIds))) throw roleNotFound();
  }

  // --- /users/{id}/roles ---

  /** The roles assigned to the user directly (GET /users/{id}/effective-roles adds those through groups). */
  async listUserRoles(tenant: Tenant, userId: string, query: OffsetInput): Promise<OffsetList<'roles', Role>> {
    const page = offsetPaging(query);
    await this.requireUser(tenant, userId);
    const { rows, total } = await this.rbac.listUserRoles(tenant.id, userId, offsetWindow(page));
    return offsetList('roles', rows.map(roleFromRow), page, total);
  }

  async assignUserRoles(tenant: Tenant, userId: string, roleIds: readonly string[]): Promise<void> {
    RbacService.linkedWithin(await this.rbac.assignUserRoles(tenant.id, userId, roleIds, this.now()), userNotFound, roleNotFound, entityLimitRefusals.rolesPerUser);
  }

  async removeUserRoles(tenant: Tenant, userId: string, roleIds: readonly string[]): Promise<void> {
    if (!(await this.rbac.removeUserRoles(tenant.id, userId, roleIds))) throw userNotFound();
  }

  // --- /users/{id}/permissions ---

  /**
   * The user's direct permissions and those of the roles assigned to the user
   * directly, each once with its sources: `{source_id: "", source_name: "",
   * source_type: "DIRECT"}` as recorded, and `{source_id: <role id>,
   * source_name: <role name>, source_type: "ROLE"}` per role. Permissions
   * that come only through groups' roles are not listed, as the service
   * documents ("Returns only permissions from direct assignments and directly
   * assigned roles"); GET /users/{id}/effective-permissions includes them.
   */
  async listUserPermissions(tenant: Tenant, userId: string, query: OffsetInput): Promise<OffsetList<'permissions', UserApiPermission>> {
    const page = offsetPaging(query);
    await this.requireUser(tenant, userId);
    const { rows, total } = await this.rbac.listUserPermissions(tenant.id, userId, offsetWindow(page));
    const permissions = rows.map((p) => ({
      ...apiPermission(p),
      sources: [
        ...(p.direct ? [{ source_id: '', source_name: '', source_type: 'DIRECT' as const }] : []),
        ...p.roles.map((r) => ({ source_id: r.id, source_name: r.name, source_type: 'ROLE' as const })),
      ],
    }));
    return offsetList('permissions', permissions, page, total);
  }

  async addUserPermissions(tenant: Tenant, userId: string, permissions: readonly PermissionRef[]): Promise<void> {
    RbacService.permissionsAdded(await this.rbac.addUserPermissions(tenant.id, userId, permissions, this.now()), userNotFound, entityLimitRefusals.permissionsPerUser);
  }

  async removeUserPermissions(tenant: Tenant, userId: string, permissions: readonly PermissionRef[]): Promise<void> {
    if (!(await this.rbac.removeUserPermissions(tenant.id, userId, permissions))) throw userNotFound();
  }

  // --- /users/{id}/effective-permissions ---

  /**
   * What the user holds for one API, directly, through roles (the user's own
   * or the user's groups'), or both. An identifier that is not an API of the
   * tenant has no permissions: the list is empty, not a 404 (the document
   * declares only the user's 404).
   */
  async listEffectivePermissions(
    tenant: Tenant,
    userId: string,
    identifier: string,
    query: CheckpointInput,
  ): Promise<CheckpointList<'permissions', EffectiveApiPermission>> {
    const scope = checkpointScopes.effectivePermissions(tenant, userId, identifier);
    const page = checkpointPaging(this.ctx, query, scope);
    await this.requireUser(tenant, userId);
    const api = await this.ctx.stores.resourceServers.getByIdentifier(tenant.id, identifier);
    const scopes = scopeDescriptions(api?.scopes ?? []);
    return checkpointPage(
      this.ctx,
      scope,
      'permissions',
      page,
      (window) => this.rbac.listEffectivePermissions(tenant.id, userId, identifier, window),
      (row) => row.permission_name,
      (row) => {
        const description = scopes.get(row.permission_name);
        const sources: ('direct' | 'roles')[] = [];
        if (row.direct) sources.push('direct');
        if (row.viaRoles) sources.push('roles');
        return {
          permission_name: row.permission_name,
          ...(description !== undefined && { description }),
          resource_server_name: api?.name ?? identifier,
          resource_server_identifier: identifier,
          sources,
        };
      },
    );
  }

  /** The roles granting the user one permission, assigned directly, through groups, or both. */
  async listEffectivePermissionRoles(
    tenant: Tenant,
    userId: string,
    permission: PermissionRef,
    query: CheckpointInput,
  ): Promise<CheckpointList<'roles', RoleWithSourcesApi>> {
    const scope = checkpointScopes.permissionRoles(tenant, userId, permission);
    const page = checkpointPaging(this.ctx, query, scope);
    await this.requireUser(tenant, userId);
    return checkpointPage(
      this.ctx,
      scope,
      'roles',
      page,
      (window) => this.rbac.listEffectivePermissionRoles(tenant.id, userId, permission, window),
      (row) => row.role.id,
      roleWithSources,
    );
  }

  // --- /users/{id}/effective-roles ---

  async listEffectiveRoles(tenant: Tenant, userId: string, query: CheckpointInput): Promise<CheckpointList<'roles', RoleWithSourcesApi>> {
    const scope = checkpointScopes.effectiveRoles(tenant, userId);
    const page = checkpointPaging(this.ctx, query, scope);
    await this.requireUser(tenant, userId);
    return checkpointPage(
      this.ctx,
      scope,
      'roles',
      page,
      (window) => this.rbac.listEffectiveRoles(tenant.id, userId, window),
      (row) => row.role.id,
      roleWithSources,
    );
  }

  /** The user's groups that have the role; the user's 404 first, then the role's (the document's "The role does not exist."). */
  async listRoleSourceGroups(tenant: Tenant, userId: string, roleId: string, query: CheckpointInput): Promise<CheckpointList<'groups', Group>> {
    const scope = checkpointScopes.roleSourceGroups(tenant, userId, roleId);
    const page = checkpointPaging(this.ctx, query, scope);
    await this.requireUser(tenant, userId);
    await this.requireRole(tenant, roleId);
    return checkpointPage(
      this.ctx,
      scope,
      'groups',
      page,
      (window) => this.rbac.listRoleSourceGroups(tenant.id, userId, roleId, window),
      (row) => row.id,
      (row) => groupFromRow(row, tenant.name),
    );
  }

  // --- /users/{id}/groups ---

  async listUserGroups(
    tenant: Tenant,
    userId: string,
    query: PagingInput,
    selection: FieldSelection,
  ): Promise<OffsetList<'groups', Partial<UserGroup>> | CheckpointList<'groups', Partial<UserGroup>>> {
    const scope = checkpointScopes.userGroups(tenant, userId);
    const paging = this.paging(query, scope);
    await this.requireUser(tenant, userId);
    return pagedList(
      this.ctx,
      scope,
      'groups',
      paging,
      (page) => this.rbac.listUserGroups(tenant.id, userId, page),
      (row) => row.id,
      ({ membership_created_at, ...row }) => selectFields({ ...groupFromRow(row, tenant.name), membership_created_at }, selection),
    );
  }

  // --- /groups/{id}/members ---

  /** Members are users; each carries the group's type, and its connection for a connection group. */
  async listGroupMembers(
    tenant: Tenant,
    groupId: string,
    query: CheckpointInput,
    selection: FieldSelection,
  ): Promise<CheckpointList<'members', Partial<GroupMember>>> {
    const scope = checkpointScopes.groupMembers(tenant, groupId);
    const page = checkpointPaging(this.ctx, query, scope);
    const group = await this.requireGroup(tenant, groupId);
    const type = groupType(group);
    return checkpointPage(
      this.ctx,
      scope,
      'members',
      page,
      (window) => this.rbac.listGroupMembers(tenant.id, groupId, window),
      (row) => row.user_id,
      (row) =>
        selectFields(
          {
            id: row.user_id,
            member_type: 'user' as const,
            type,
            ...(group.connection_id !== null && { connection_id: group.connection_id }),
            created_at: row.created_at,
          },
          selection,
        ),
    );
  }

  async addGroupMembers(tenant: Tenant, groupId: string, userIds: readonly string[]): Promise<void> {
    RbacService.linked(await this.rbac.addGroupMembers(tenant.id, groupId, userIds, this.now()), groupNotFound, userNotFound);
  }

  async removeGroupMembers(tenant: Tenant, groupId: string, userIds: readonly string[]): Promise<void> {
    if (!(await this.rbac.removeGroupMembers(tenant.id, groupId, userIds))) throw groupNotFound();
  }
}
