/**
 * /users/{id}/roles, /users/{id}/permissions, /users/{id}/effective-roles,
 * /users/{id}/effective-permissions and /users/{id}/groups: what a user holds
 * and how (the rules in ./shared.ts).
 */
import { groupFromRow, type Group } from '../../domain/groups/model.js';
import type { GroupMemberStore, PermissionRef, UserPermissionStore, UserRoleStore } from '../../domain/rbac/store.js';
import { scopeDescriptions } from '../../domain/resource-servers/model.js';
import type { ResourceServerStore } from '../../domain/resource-servers/store.js';
import { roleFromRow, type Role } from '../../domain/roles/model.js';
import type { RoleStore } from '../../domain/roles/store.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import type { UserStore } from '../../domain/users/store.js';
import { entityLimitRefusals } from '../entity-limits.js';
import { selectFields, type FieldSelection } from '../fields.js';
import { checkpointPage, checkpointPaging, pagedList, type CheckpointList, type CheckpointSealing, type OffsetList } from '../lists.js';
import type { PagingInput } from '../paging.js';
import { roleNotFound } from '../roles/service.js';
import { userNotFound } from '../users/service.js';
import {
  apiPermission,
  checkpointScopes,
  nowIso,
  pagingOf,
  requireRole,
  requireUser,
  linkedWithin,
  ownedCheckpointList,
  ownedOffsetList,
  permissionsAdded,
  roleWithSources,
  type CheckpointInput,
  type EffectiveApiPermission,
  type OffsetInput,
  type RoleWithSourcesApi,
  type UserApiPermission,
  type UserGroup,
} from './shared.js';

/** What UserAccessService touches. */
export interface UserAccessContext extends CheckpointSealing {
  readonly stores: {
    readonly users: UserStore;
    readonly roles: RoleStore;
    readonly resourceServers: ResourceServerStore;
    readonly rbac: UserRoleStore & UserPermissionStore & GroupMemberStore;
  };
}

export class UserAccessService {
  constructor(private readonly ctx: UserAccessContext) {}

  /** The path's user must exist (its 404), checked by the lists in their order. */
  private user(tenant: Tenant, userId: string): () => Promise<unknown> {
    return () => requireUser(this.ctx.stores.users, tenant, userId);
  }

  // --- /users/{id}/roles ---

  /** The roles assigned to the user directly (GET /users/{id}/effective-roles adds those through groups). */
  async listUserRoles(tenant: Tenant, userId: string, query: OffsetInput): Promise<OffsetList<'roles', Role>> {
    return ownedOffsetList(query, this.user(tenant, userId), 'roles', (window) => this.ctx.stores.rbac.listUserRoles(tenant.id, userId, window), roleFromRow);
  }

  async assignUserRoles(tenant: Tenant, userId: string, roleIds: readonly string[]): Promise<void> {
    linkedWithin(await this.ctx.stores.rbac.assignUserRoles(tenant.id, userId, roleIds, nowIso(this.ctx)), userNotFound, roleNotFound, entityLimitRefusals.rolesPerUser);
  }

  async removeUserRoles(tenant: Tenant, userId: string, roleIds: readonly string[]): Promise<void> {
    if (!(await this.ctx.stores.rbac.removeUserRoles(tenant.id, userId, roleIds))) throw userNotFound();
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
    return ownedOffsetList(
      query,
      this.user(tenant, userId),
      'permissions',
      (window) => this.ctx.stores.rbac.listUserPermissions(tenant.id, userId, window),
      (p) => ({
        ...apiPermission(p),
        sources: [
          ...(p.direct ? [{ source_id: '', source_name: '', source_type: 'DIRECT' as const }] : []),
          ...p.roles.map((r) => ({ source_id: r.id, source_name: r.name, source_type: 'ROLE' as const })),
        ],
      }),
    );
  }

  async addUserPermissions(tenant: Tenant, userId: string, permissions: readonly PermissionRef[]): Promise<void> {
    permissionsAdded(await this.ctx.stores.rbac.addUserPermissions(tenant.id, userId, permissions, nowIso(this.ctx)), userNotFound, entityLimitRefusals.permissionsPerUser);
  }

  async removeUserPermissions(tenant: Tenant, userId: string, permissions: readonly PermissionRef[]): Promise<void> {
    if (!(await this.ctx.stores.rbac.removeUserPermissions(tenant.id, userId, permissions))) throw userNotFound();
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
    await requireUser(this.ctx.stores.users, tenant, userId);
    const api = await this.ctx.stores.resourceServers.getByIdentifier(tenant.id, identifier);
    const scopes = scopeDescriptions(api?.scopes ?? []);
    return checkpointPage(
      this.ctx,
      scope,
      'permissions',
      page,
      (window) => this.ctx.stores.rbac.listEffectivePermissions(tenant.id, userId, identifier, window),
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
    return ownedCheckpointList(
      this.ctx,
      query,
      checkpointScopes.permissionRoles(tenant, userId, permission),
      this.user(tenant, userId),
      'roles',
      (window) => this.ctx.stores.rbac.listEffectivePermissionRoles(tenant.id, userId, permission, window),
      (row) => row.role.id,
      roleWithSources,
    );
  }

  // --- /users/{id}/effective-roles ---

  async listEffectiveRoles(tenant: Tenant, userId: string, query: CheckpointInput): Promise<CheckpointList<'roles', RoleWithSourcesApi>> {
    return ownedCheckpointList(
      this.ctx,
      query,
      checkpointScopes.effectiveRoles(tenant, userId),
      this.user(tenant, userId),
      'roles',
      (window) => this.ctx.stores.rbac.listEffectiveRoles(tenant.id, userId, window),
      (row) => row.role.id,
      roleWithSources,
    );
  }

  /** The user's groups that have the role; the user's 404 first, then the role's (the document's "The role does not exist."). */
  async listRoleSourceGroups(tenant: Tenant, userId: string, roleId: string, query: CheckpointInput): Promise<CheckpointList<'groups', Group>> {
    const owners = async () => {
      await requireUser(this.ctx.stores.users, tenant, userId);
      await requireRole(this.ctx.stores.roles, tenant, roleId);
    };
    return ownedCheckpointList(
      this.ctx,
      query,
      checkpointScopes.roleSourceGroups(tenant, userId, roleId),
      owners,
      'groups',
      (window) => this.ctx.stores.rbac.listRoleSourceGroups(tenant.id, userId, roleId, window),
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
    const paging = pagingOf(this.ctx, query, scope);
    await requireUser(this.ctx.stores.users, tenant, userId);
    return pagedList(
      this.ctx,
      scope,
      'groups',
      paging,
      (page) => this.ctx.stores.rbac.listUserGroups(tenant.id, userId, page),
      (row) => row.id,
      ({ membership_created_at, ...row }) => selectFields({ ...groupFromRow(row, tenant.name), membership_created_at }, selection),
    );
  }
}
