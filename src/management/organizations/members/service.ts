/**
 * Business rules of organization members and their roles in the
 * organization, behind the Management API routes.
 *
 * Adding members: every user must exist, all are added or none (an unknown
 * user is a 400 naming it, the document listing no 404 for the operation);
 * members already in the organization stay. Removing skips users who are not
 * members; their roles in the organization go with their membership. Roles:
 * only members hold them; every role must exist, all or none.
 */
import { recordEvent } from '../../../domain/event-streams/events.js';
import type { EventStreamStore } from '../../../domain/event-streams/store.js';
import type { UnitOfWork } from '../../../domain/stores.js';
import type { Organization } from '../../../domain/organizations/model.js';
import { organizationFromRow } from '../../../domain/organizations/model.js';
import type { OrganizationMemberProfile, OrganizationMemberStore } from '../../../domain/organizations/members-store.js';
import { roleFromRow, type Role } from '../../../domain/roles/model.js';
import type { Tenant } from '../../../domain/tenants/tenant.js';
import { isoAt } from '../../../platform/clock.js';
import { managementErrors } from '../../../platform/http/errors.js';
import type { FieldSelection } from '../../fields.js';
import { selectFields } from '../../fields.js';
import { offsetList, offsetPaging, offsetWindow, pagedList, type CheckpointList, type OffsetList, type CheckpointSealing } from '../../lists.js';
import type { Paging } from '../../paging.js';
import { roleNotFound } from '../../roles/service.js';
import { userNotFound } from '../../users/service.js';
import { notFound as organizationNotFound } from '../service.js';
import type { OrganizationStore } from '../../../domain/organizations/store.js';
import type { UserStore } from '../../../domain/users/store.js';

export interface OrganizationMember {
  user_id: string;
  picture?: string;
  name?: string;
  email?: string;
  roles?: { id: string; name: string }[];
}

const notMember = () => managementErrors.notFound('The user is not a member of the organization.', 'inexistent_user');

function memberFromRow(row: OrganizationMemberProfile, roles: Role[] | undefined): OrganizationMember {
  const member: OrganizationMember = { user_id: row.user_id };
  if (row.picture !== null) member.picture = row.picture;
  if (row.name !== null) member.name = row.name;
  if (row.email !== null) member.email = row.email;
  if (roles) member.roles = roles.map(({ id, name }) => ({ id, name }));
  return member;
}

export function membersScope(tenant: Tenant, organizationId: string): string {
  return `${tenant.id}:organization-members:${organizationId}`;
}

/** What OrganizationMemberService touches. */
export interface OrganizationMemberServiceContext extends CheckpointSealing {
  readonly now: () => number;
  readonly stores: {
    readonly organizationMembers: OrganizationMemberStore;
    readonly organizations: OrganizationStore;
    readonly users: UserStore;
  };
  /** Members added or removed and their events (src/domain/event-streams/events.ts) commit together. */
  readonly unitOfWork: UnitOfWork<{ readonly organizationMembers: OrganizationMemberStore; readonly organizations: OrganizationStore; readonly eventStreams: EventStreamStore }>;
}

type MemberStores = { readonly organizationMembers: OrganizationMemberStore; readonly organizations: OrganizationStore; readonly eventStreams: EventStreamStore };

/** `organization.member.added` / `.deleted` for each user whose membership the change made or ended. */
async function recordMemberEvents(stores: MemberStores, tenant: Tenant, organizationId: string, type: 'organization.member.added' | 'organization.member.deleted', userIds: readonly string[], now: number): Promise<void> {
  if (userIds.length === 0) return;
  const organization = await stores.organizations.get(tenant.id, organizationId);
  if (!organization) return;
  for (const user_id of userIds) {
    await recordEvent(stores, tenant, type, { organization: { id: organization.id, name: organization.name }, user: { user_id } }, now);
  }
}

/** Which of the users are members of the organization (before a change: who the change concerns). */
async function membersAmong(stores: MemberStores, tenantId: string, organizationId: string, userIds: readonly string[]): Promise<Set<string>> {
  const members = new Set<string>();
  for (const id of new Set(userIds)) if (await stores.organizationMembers.isMember(tenantId, organizationId, id)) members.add(id);
  return members;
}

export class OrganizationMemberService {
  constructor(private readonly ctx: OrganizationMemberServiceContext) {}

  private async requireOrganization(tenant: Tenant, id: string): Promise<void> {
    if (!(await this.ctx.stores.organizations.get(tenant.id, id))) throw organizationNotFound();
  }

  /**
   * Offset or checkpoint pages by user id. `roles` is given only when `fields`
   * names it, as the service does (it costs a second query per page).
   */
  async list(
    tenant: Tenant,
    organizationId: string,
    paging: Paging,
    selection: FieldSelection,
  ): Promise<OffsetList<'members', Partial<OrganizationMember>> | CheckpointList<'members', Partial<OrganizationMember>>> {
    await this.requireOrganization(tenant, organizationId);
    const store = this.ctx.stores.organizationMembers;
    const withRoles = selection.include && selection.fields.has('roles');
    let roles = new Map<string, Role[]>();
    const list = await pagedList(
      this.ctx,
      membersScope(tenant, organizationId),
      'members',
      paging,
      async (page) => {
        const result = await store.listMembers(tenant.id, organizationId, page);
        if (withRoles) {
          const rows = await store.rolesOfMembers(tenant.id, organizationId, result.rows.map((r) => r.user_id));
          roles = new Map([...rows].map(([id, list]) => [id, list.map(roleFromRow)]));
        }
        return result;
      },
      (row) => row.user_id,
      (row) => row,
    );
    const shape = (row: OrganizationMemberProfile) => selectFields(memberFromRow(row, withRoles ? (roles.get(row.user_id) ?? []) : undefined), selection);
    if (Array.isArray(list)) return list.map(shape);
    return { ...list, members: list.members.map(shape) } as OffsetList<'members', Partial<OrganizationMember>> | CheckpointList<'members', Partial<OrganizationMember>>;
  }

  async add(tenant: Tenant, organizationId: string, userIds: readonly string[]): Promise<void> {
    const result = await this.ctx.unitOfWork.transaction(async (stores) => {
      const before = await membersAmong(stores, tenant.id, organizationId, userIds);
      const added = await stores.organizationMembers.addMembers(tenant.id, organizationId, userIds, isoAt(this.ctx.now()));
      if (added.status === 'assigned') {
        await recordMemberEvents(stores, tenant, organizationId, 'organization.member.added', [...new Set(userIds)].filter((id) => !before.has(id)), this.ctx.now());
      }
      return added;
    });
    if (result.status === 'owner_not_found') throw organizationNotFound();
    if (result.status === 'item_not_found') throw managementErrors.badRequest(`The user ${result.id} does not exist.`, 'inexistent_user');
  }

  async remove(tenant: Tenant, organizationId: string, userIds: readonly string[]): Promise<void> {
    const removed = await this.ctx.unitOfWork.transaction(async (stores) => {
      const before = await membersAmong(stores, tenant.id, organizationId, userIds);
      const done = await stores.organizationMembers.removeMembers(tenant.id, organizationId, userIds);
      if (done) await recordMemberEvents(stores, tenant, organizationId, 'organization.member.deleted', [...before], this.ctx.now());
      return done;
    });
    if (!removed) throw organizationNotFound();
  }

  /** A member's roles in the organization; the organization's 404, then the user's, then "not a member". */
  async listRoles(tenant: Tenant, organizationId: string, userId: string, query: { page?: number; per_page?: number; include_totals?: boolean }): Promise<OffsetList<'roles', Role>> {
    await this.requireMember(tenant, organizationId, userId);
    const page = offsetPaging(query);
    const { rows, total } = await this.ctx.stores.organizationMembers.listMemberRoles(tenant.id, organizationId, userId, offsetWindow(page));
    return offsetList('roles', rows.map(roleFromRow), page, total);
  }

  async assignRoles(tenant: Tenant, organizationId: string, userId: string, roleIds: readonly string[]): Promise<void> {
    const result = await this.ctx.stores.organizationMembers.assignMemberRoles(tenant.id, organizationId, userId, roleIds, isoAt(this.ctx.now()));
    if (result.status === 'owner_not_found') await this.requireMember(tenant, organizationId, userId);
    if (result.status === 'item_not_found') throw roleNotFound();
  }

  async removeRoles(tenant: Tenant, organizationId: string, userId: string, roleIds: readonly string[]): Promise<void> {
    if (!(await this.ctx.stores.organizationMembers.removeMemberRoles(tenant.id, organizationId, userId, roleIds))) {
      await this.requireMember(tenant, organizationId, userId);
    }
  }

  /** GET /users/{id}/organizations: the user's organizations by id. */
  async userOrganizations(tenant: Tenant, userId: string, query: { page?: number; per_page?: number; include_totals?: boolean }): Promise<OffsetList<'organizations', Organization>> {
    if (!(await this.ctx.stores.users.get(tenant.id, userId))) throw userNotFound();
    const page = offsetPaging(query);
    const { rows, total } = await this.ctx.stores.organizationMembers.listUserOrganizations(tenant.id, userId, offsetWindow(page));
    return offsetList('organizations', rows.map(organizationFromRow), page, total);
  }

  private async requireMember(tenant: Tenant, organizationId: string, userId: string): Promise<void> {
    await this.requireOrganization(tenant, organizationId);
    if (!(await this.ctx.stores.users.get(tenant.id, userId))) throw userNotFound();
    if (!(await this.ctx.stores.organizationMembers.isMember(tenant.id, organizationId, userId))) throw notMember();
  }
}
