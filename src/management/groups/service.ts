/**
 * Business rules of groups and of the roles assigned to them, behind the
 * Management API routes (spec, operation 2; management-api-wire-notes §3).
 * Token issuance reads groups' roles per token, uncached, so writes leave the
 * issuance caches alone. A group's members are GroupMemberService's (src/management/rbac).
 */
import { groupFromRow, newGroupId, type Group, type GroupRow } from '../../domain/groups/model.js';
import { managementErrors } from '../../platform/http/errors.js';
import { roleFromRow, type Role } from '../../domain/roles/model.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { roleNotFound } from '../roles/service.js';
import { selectFields, type FieldSelection } from '../fields.js';
import { checkpointPage, pagedList, type CheckpointList, type CheckpointSealing, type OffsetList } from '../lists.js';
import type { Paging } from '../paging.js';
import type { CreateGroupBody } from './schema.js';
import { type GroupFilter, type GroupStore } from '../../domain/groups/store.js';
import { isUniqueViolation } from '../../platform/database-errors.js';
import { isoAt } from '../../platform/clock.js';

/** The document's 404 text; the errorCode is Gatehouse's, after the service's `inexistent_*` family. */
export const groupNotFound = () => managementErrors.notFound('Group not found.', 'inexistent_group');
const conflict = () => managementErrors.conflict('A group with the same name already exists.');

export type GroupList = OffsetList<'groups', Partial<Group>> | CheckpointList<'groups', Partial<Group>>;

export function checkpointScope(tenant: Tenant): string {
  return `${tenant.id}:groups`;
}

export function groupRolesCheckpointScope(tenant: Tenant, groupId: string): string {
  return `${tenant.id}:groups:${groupId}:roles`;
}

/** What GroupService touches. */
export interface GroupServiceContext extends CheckpointSealing {
  readonly stores: { readonly groups: GroupStore };
}

export class GroupService {
  readonly groups: GroupStore;

  constructor(private readonly ctx: GroupServiceContext) {
    this.groups = ctx.stores.groups;
  }

  /**
   * Checkpoint paging when `from` or `take` is given (what the SDK sends:
   * `include_totals=true&take=50`), offset paging otherwise. The document's
   * single paginated shape `{groups, next?, start?, limit?, total?}` is filled
   * as `{groups, next?}` for checkpoints and `{groups, start, limit, total}`
   * for offsets with include_totals.
   */
  async list(tenant: Tenant, filter: GroupFilter, paging: Paging, selection?: FieldSelection): Promise<GroupList> {
    const toApi = (row: GroupRow) => selectFields(groupFromRow(row, tenant.name), selection);
    return pagedList(this.ctx, checkpointScope(tenant), 'groups', paging, (page) => this.groups.list(tenant.id, filter, page), (row) => row.id, toApi);
  }

  async get(tenant: Tenant, id: string): Promise<Group> {
    const row = await this.groups.get(tenant.id, id);
    if (!row) throw groupNotFound();
    return groupFromRow(row, tenant.name);
  }

  /** Gatehouse's POST /groups: a tenant group (no connection, no organization). */
  async create(tenant: Tenant, body: CreateGroupBody): Promise<Group> {
    const now = isoAt(this.ctx.now());
    const row: GroupRow = {
      tenant_id: tenant.id,
      id: newGroupId(),
      name: body.name,
      description: body.description ?? null,
      external_id: body.external_id ?? null,
      connection_id: null,
      organization_id: null,
      created_at: now,
      updated_at: now,
    };
    try {
      await this.groups.insert(row);
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict();
      throw error;
    }
    return groupFromRow(row, tenant.name);
  }

  /** The group, its members and its role assignments go together. */
  async delete(tenant: Tenant, id: string): Promise<void> {
    if (!(await this.groups.delete(tenant.id, id))) throw groupNotFound();
  }

  /** GET /groups/{id}/roles: always checkpoint paging, `{roles, next?}`. */
  async listRoles(tenant: Tenant, groupId: string, page: { after: string | undefined; take: number }): Promise<CheckpointList<'roles', Role>> {
    if (!(await this.groups.get(tenant.id, groupId))) throw groupNotFound();
    return checkpointPage(
      this.ctx,
      groupRolesCheckpointScope(tenant, groupId),
      'roles',
      page,
      (window) => this.groups.listRoles(tenant.id, groupId, window),
      (row) => row.id,
      roleFromRow,
    );
  }

  /**
   * POST /groups/{id}/roles: all listed roles are assigned or none. A role id
   * that does not exist in the tenant refuses the whole request with the
   * service's 404 for roles ("The role does not exist.", as for
   * /roles/{id}/groups); roles already assigned are not an error.
   */
  async assignRoles(tenant: Tenant, groupId: string, roleIds: readonly string[]): Promise<void> {
    const result = await this.groups.assignRoles(tenant.id, groupId, roleIds, isoAt(this.ctx.now()));
    if (result.status === 'group_not_found') throw groupNotFound();
    if (result.status === 'role_not_found') throw roleNotFound();
  }

  /**
   * DELETE /groups/{id}/roles (spec, operation 2): removes all listed roles in
   * one transaction. Removing a role that is not assigned is not an error, and
   * neither is a well-formed role id that does not exist in the tenant: such a
   * role cannot be assigned, so after the call it is not assigned, which is what
   * the caller asked for. This keeps removal idempotent (a retry after a
   * timeout, or after the role itself was deleted, still answers 204) instead of
   * failing a request whose intended end state already holds.
   */
  async removeRoles(tenant: Tenant, groupId: string, roleIds: readonly string[]): Promise<void> {
    if (!(await this.groups.removeRoles(tenant.id, groupId, roleIds))) throw groupNotFound();
  }
}
