/**
 * Groups in an organization (`/organizations/{organization_id}/groups` and
 * their roles there): the organization's own groups and the groups of the
 * connections enabled for it (a customer's directory groups, provisioned by
 * SCIM). A role a group holds in an organization is held by its members in
 * that organization's logins only (src/storage/kysely/rbac.ts
 * `effectivePermissions`); token issuance reads it per token, so writes
 * touch no cache.
 */
import { groupFromRow, type Group } from '../../../domain/groups/model.js';
import type { GroupStore } from '../../../domain/groups/store.js';
import type { OrganizationStore } from '../../../domain/organizations/store.js';
import type { OrganizationMemberStore } from '../../../domain/organizations/members-store.js';
import { managementErrors } from '../../../platform/http/errors.js';
import { roleWithSources } from '../../rbac/shared.js';
import type { RoleWithSourcesApi } from '../../rbac/shared.js';
import { roleFromRow, type Role } from '../../../domain/roles/model.js';
import type { Tenant } from '../../../domain/tenants/tenant.js';
import { isoAt } from '../../../platform/clock.js';
import { groupNotFound } from '../../groups/service.js';
import { checkpointPage, checkpointPaging, type CheckpointList, type CheckpointSealing } from '../../lists.js';
import { roleNotFound } from '../../roles/service.js';
import { notFound as organizationNotFound } from '../service.js';

export interface OrganizationGroupServiceContext extends CheckpointSealing {
  readonly stores: { readonly groups: GroupStore; readonly organizations: Pick<OrganizationStore, 'get'>; readonly organizationMembers: Pick<OrganizationMemberStore, 'isMember'> };
}

type Query = { from?: string; take?: number };

export class OrganizationGroupService {
  constructor(private readonly ctx: OrganizationGroupServiceContext) {}

  private async organization(tenant: Tenant, organizationId: string): Promise<void> {
    if (!(await this.ctx.stores.organizations.get(tenant.id, organizationId))) throw organizationNotFound();
  }

  /** 404 "Group not found." unless the group is one of the organization's. */
  private async group(tenant: Tenant, organizationId: string, groupId: string): Promise<void> {
    await this.organization(tenant, organizationId);
    if (!(await this.ctx.stores.groups.getOrganizationGroup(tenant.id, organizationId, groupId))) throw groupNotFound();
  }

  /** GET /organizations/{organization_id}/groups → `{groups, next?}`. */
  async list(tenant: Tenant, organizationId: string, query: Query): Promise<CheckpointList<'groups', Group>> {
    await this.organization(tenant, organizationId);
    const scope = `${tenant.id}:organizations:${organizationId}:groups`;
    return checkpointPage(
      this.ctx,
      scope,
      'groups',
      checkpointPaging(this.ctx, query, scope),
      (window) => this.ctx.stores.groups.listOrganizationGroups(tenant.id, organizationId, window),
      (row) => row.id,
      (row) => groupFromRow(row, tenant.name),
    );
  }

  /** GET …/groups/{group_id}/roles → `{roles, next?}`. */
  async listRoles(tenant: Tenant, organizationId: string, groupId: string, query: Query): Promise<CheckpointList<'roles', Role>> {
    await this.group(tenant, organizationId, groupId);
    const scope = `${tenant.id}:organizations:${organizationId}:groups:${groupId}:roles`;
    return checkpointPage(
      this.ctx,
      scope,
      'roles',
      checkpointPaging(this.ctx, query, scope),
      (window) => this.ctx.stores.groups.listOrganizationGroupRoles(tenant.id, organizationId, groupId, window),
      (row) => row.id,
      roleFromRow,
    );
  }

  /** POST …/roles → 204: all listed roles or none (a missing one: 404 "The role does not exist."). */
  async assignRoles(tenant: Tenant, organizationId: string, groupId: string, roleIds: readonly string[]): Promise<void> {
    await this.group(tenant, organizationId, groupId);
    const result = await this.ctx.stores.groups.assignOrganizationGroupRoles(tenant.id, organizationId, groupId, roleIds, isoAt(this.ctx.now()));
    if (result.status === 'role_not_found') throw roleNotFound();
  }

  /** DELETE …/roles → 204: idempotent, as DELETE /groups/{id}/roles. */
  async removeRoles(tenant: Tenant, organizationId: string, groupId: string, roleIds: readonly string[]): Promise<void> {
    await this.group(tenant, organizationId, groupId);
    await this.ctx.stores.groups.removeOrganizationGroupRoles(tenant.id, organizationId, groupId, roleIds);
  }

  /** 404 for an unknown organization, then for a user who is not its member (the document's 404 is the organization's). */
  private async member(tenant: Tenant, organizationId: string, userId: string): Promise<void> {
    await this.organization(tenant, organizationId);
    if (!(await this.ctx.stores.organizationMembers.isMember(tenant.id, organizationId, userId))) throw managementErrors.notFound('The user is not a member of the organization.');
  }

  /** GET /organizations/{id}/members/{user_id}/effective-roles → `{roles, next?}`: the roles held in the organization, with `sources`. */
  async listMemberEffectiveRoles(tenant: Tenant, organizationId: string, userId: string, query: Query): Promise<CheckpointList<'roles', RoleWithSourcesApi>> {
    await this.member(tenant, organizationId, userId);
    const scope = `${tenant.id}:organizations:${organizationId}:members:${userId}:effective-roles`;
    return checkpointPage(
      this.ctx,
      scope,
      'roles',
      checkpointPaging(this.ctx, query, scope),
      (window) => this.ctx.stores.groups.listOrganizationMemberEffectiveRoles(tenant.id, organizationId, userId, window),
      (row) => row.role.id,
      roleWithSources,
    );
  }

  /** GET …/effective-roles/sources/groups?role_id= → `{groups, next?}`: the member's groups that hold the role in the organization. */
  async listMemberRoleSourceGroups(tenant: Tenant, organizationId: string, userId: string, roleId: string, query: Query): Promise<CheckpointList<'groups', Group>> {
    await this.member(tenant, organizationId, userId);
    const scope = `${tenant.id}:organizations:${organizationId}:members:${userId}:roles:${roleId}:groups`;
    return checkpointPage(
      this.ctx,
      scope,
      'groups',
      checkpointPaging(this.ctx, query, scope),
      (window) => this.ctx.stores.groups.listOrganizationMemberRoleSourceGroups(tenant.id, organizationId, userId, roleId, window),
      (row) => row.id,
      (row) => groupFromRow(row, tenant.name),
    );
  }
}
