/**
 * /roles/{id}/permissions, /roles/{id}/users and /roles/{id}/groups: what a
 * role grants and whom it is assigned to (the rules in ./shared.ts).
 */
import { groupFromRow, type Group } from '../../domain/groups/model.js';
import type { RoleMemberStore, RolePermissionStore, PermissionRef } from '../../domain/rbac/store.js';
import type { RoleStore } from '../../domain/roles/store.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { managementErrors } from '../../platform/http/errors.js';
import { entityLimitRefusals } from '../entity-limits.js';
import { groupNotFound } from '../groups/service.js';
import { pagedList, type CheckpointList, type OffsetList, type CheckpointSealing } from '../lists.js';
import type { PagingInput } from '../paging.js';
import { roleNotFound } from '../roles/service.js';
import { userNotFound } from '../users/service.js';
import {
  apiPermission,
  checkpointScopes,
  nowIso,
  pagingOf,
  requireRole,
  linked,
  linkedWithin,
  ownedCheckpointList,
  ownedOffsetList,
  permissionsAdded,
  roleUser,
  type ApiPermission,
  type CheckpointInput,
  type OffsetInput,
  type RoleUser,
} from './shared.js';

/** Members of a role reachable by offset paging (the service's rule for GET /roles/{id}/users). */
const ROLE_USERS_OFFSET_LIMIT = 1000;

/** What RoleAccessService touches. */
export interface RoleAccessContext extends CheckpointSealing {
  readonly stores: { readonly roles: RoleStore; readonly rbac: RolePermissionStore & RoleMemberStore };
}

export class RoleAccessService {
  constructor(private readonly ctx: RoleAccessContext) {}

  // --- /roles/{id}/permissions ---

  async listRolePermissions(tenant: Tenant, roleId: string, query: OffsetInput): Promise<OffsetList<'permissions', ApiPermission>> {
    const role = () => requireRole(this.ctx.stores.roles, tenant, roleId);
    return ownedOffsetList(query, role, 'permissions', (window) => this.ctx.stores.rbac.listRolePermissions(tenant.id, roleId, window), apiPermission);
  }

  async addRolePermissions(tenant: Tenant, roleId: string, permissions: readonly PermissionRef[]): Promise<void> {
    permissionsAdded(await this.ctx.stores.rbac.addRolePermissions(tenant.id, roleId, permissions, nowIso(this.ctx)), roleNotFound, entityLimitRefusals.permissionsPerRole);
  }

  async removeRolePermissions(tenant: Tenant, roleId: string, permissions: readonly PermissionRef[]): Promise<void> {
    if (!(await this.ctx.stores.rbac.removeRolePermissions(tenant.id, roleId, permissions))) throw roleNotFound();
  }

  // --- /roles/{id}/users ---

  /** Offset or checkpoint paging, by user_id; users with the role directly (not through groups: see /roles/{id}/groups). */
  async listRoleUsers(tenant: Tenant, roleId: string, query: PagingInput): Promise<OffsetList<'users', RoleUser> | CheckpointList<'users', RoleUser>> {
    const scope = checkpointScopes.roleUsers(tenant, roleId);
    const paging = pagingOf(this.ctx, query, scope);
    // The service reaches only the first 1000 members by offset, and says which paging does more.
    if (paging.kind === 'offset' && paging.page * paging.perPage + paging.perPage > ROLE_USERS_OFFSET_LIMIT) {
      throw managementErrors.checkpointPagingRequired(ROLE_USERS_OFFSET_LIMIT);
    }
    await requireRole(this.ctx.stores.roles, tenant, roleId);
    return pagedList(
      this.ctx,
      scope,
      'users',
      paging,
      (page) => this.ctx.stores.rbac.listRoleUsers(tenant.id, roleId, page),
      (row) => row.user_id,
      roleUser,
    );
  }

  async assignRoleUsers(tenant: Tenant, roleId: string, userIds: readonly string[]): Promise<void> {
    linkedWithin(await this.ctx.stores.rbac.assignRoleUsers(tenant.id, roleId, userIds, nowIso(this.ctx)), roleNotFound, userNotFound, entityLimitRefusals.rolesPerUser);
  }

  // --- /roles/{id}/groups ---

  async listRoleGroups(tenant: Tenant, roleId: string, query: CheckpointInput): Promise<CheckpointList<'groups', Group>> {
    return ownedCheckpointList(
      this.ctx,
      query,
      checkpointScopes.roleGroups(tenant, roleId),
      () => requireRole(this.ctx.stores.roles, tenant, roleId),
      'groups',
      (window) => this.ctx.stores.rbac.listRoleGroups(tenant.id, roleId, window),
      (row) => row.id,
      (row) => groupFromRow(row, tenant.name),
    );
  }

  async assignRoleGroups(tenant: Tenant, roleId: string, groupIds: readonly string[]): Promise<void> {
    linked(await this.ctx.stores.rbac.assignRoleGroups(tenant.id, roleId, groupIds, nowIso(this.ctx)), roleNotFound, groupNotFound);
  }

  async removeRoleGroups(tenant: Tenant, roleId: string, groupIds: readonly string[]): Promise<void> {
    if (!(await this.ctx.stores.rbac.removeRoleGroups(tenant.id, roleId, groupIds))) throw roleNotFound();
  }
}
