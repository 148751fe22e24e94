/**
 * /groups/{id}/members: the users of a group (the rules in ./shared.ts; the
 * same memberships from the user's side are UserAccessService's).
 */
import type { GroupRow } from '../../domain/groups/model.js';
import type { GroupStore } from '../../domain/groups/store.js';
import type { GroupMemberStore } from '../../domain/rbac/store.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { selectFields, type FieldSelection } from '../fields.js';
import { groupNotFound } from '../groups/service.js';
import { checkpointPage, checkpointPaging, type CheckpointList, type CheckpointSealing } from '../lists.js';
import { userNotFound } from '../users/service.js';
import { checkpointScopes, groupType, linked, nowIso, type CheckpointInput, type GroupMember } from './shared.js';

/** What GroupMemberService touches. */
export interface GroupMemberContext extends CheckpointSealing {
  readonly stores: { readonly groups: GroupStore; readonly rbac: GroupMemberStore };
}

export class GroupMemberService {
  constructor(private readonly ctx: GroupMemberContext) {}

  private async requireGroup(tenant: Tenant, groupId: string): Promise<GroupRow> {
    const group = await this.ctx.stores.groups.get(tenant.id, groupId);
    if (!group) throw groupNotFound();
    return group;
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
      (window) => this.ctx.stores.rbac.listGroupMembers(tenant.id, groupId, window),
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
    linked(await this.ctx.stores.rbac.addGroupMembers(tenant.id, groupId, userIds, nowIso(this.ctx)), groupNotFound, userNotFound);
  }

  async removeGroupMembers(tenant: Tenant, groupId: string, userIds: readonly string[]): Promise<void> {
    if (!(await this.ctx.stores.rbac.removeGroupMembers(tenant.id, groupId, userIds))) throw groupNotFound();
  }
}
