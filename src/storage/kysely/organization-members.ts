import type { AssignResult } from '../../domain/assignments.js';
import type { OrganizationMemberProfile, OrganizationMemberStore } from '../../domain/organizations/members-store.js';
import type { OffsetWindow, Page, PageQuery } from '../../domain/paging.js';
import type { OrganizationRow } from '../../domain/organizations/rows.js';
import type { RoleRow } from '../../domain/roles/rows.js';
import { isForeignKeyViolation } from '../../platform/database-errors.js';
import { atomically, type Db } from '../database.js';
import { assignLinks, chunks, removeLinks, type Link } from '../links.js';
import { countRows, fetchPage, parsedPage } from '../paging.js';

const MEMBERS: Link = { table: 'organization_members', owner: { side: 'organization', column: 'organization_id' }, item: { side: 'user', column: 'user_id' } };

export class KyselyOrganizationMemberStore implements OrganizationMemberStore {
  constructor(private readonly db: Db) {}

  addMembers(tenantId: string, organizationId: string, userIds: readonly string[], createdAt: string): Promise<AssignResult> {
    return assignLinks(this.db, MEMBERS, tenantId, organizationId, userIds, createdAt);
  }

  removeMembers(tenantId: string, organizationId: string, userIds: readonly string[]): Promise<boolean> {
    // The members' roles go with them: organization_member_roles cascades (migration 0040).
    return removeLinks(this.db, MEMBERS, tenantId, organizationId, userIds);
  }

  listMembers(tenantId: string, organizationId: string, page: PageQuery): Promise<Page<OrganizationMemberProfile>> {
    const base = this.db.selectFrom('organization_members as om').where('om.tenant_id', '=', tenantId).where('om.organization_id', '=', organizationId);
    return fetchPage(
      base.innerJoin('users as u', (j) => j.onRef('u.tenant_id', '=', 'om.tenant_id').onRef('u.user_id', '=', 'om.user_id')),
      (q) => q.select(['om.user_id', 'u.email', 'u.picture', 'u.name']),
      'om.user_id',
      page,
      { count: () => countRows(base) },
    );
  }

  async rolesOfMembers(tenantId: string, organizationId: string, userIds: readonly string[]): Promise<Map<string, RoleRow[]>> {
    const byUser = new Map<string, RoleRow[]>(userIds.map((id) => [id, []]));
    for (const chunk of chunks([...new Set(userIds)])) {
      const rows = await this.#memberRoles(tenantId, organizationId)
        .where('mr.user_id', 'in', chunk)
        .selectAll('r')
        .select('mr.user_id as member_id')
        .orderBy('mr.user_id')
        .orderBy('mr.role_id')
        .execute();
      for (const { member_id, ...role } of rows) byUser.get(member_id)?.push(role);
    }
    return byUser;
  }

  async isMember(tenantId: string, organizationId: string, userId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('organization_members')
      .select('user_id')
      .where('tenant_id', '=', tenantId)
      .where('organization_id', '=', organizationId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row !== undefined;
  }

  async assignMemberRoles(tenantId: string, organizationId: string, userId: string, roleIds: readonly string[], createdAt: string): Promise<AssignResult> {
    const ids = [...new Set(roleIds)];
    const attempt = () =>
      atomically(this.db, async (trx): Promise<AssignResult> => {
        if (!(await new KyselyOrganizationMemberStore(trx).isMember(tenantId, organizationId, userId))) return { status: 'owner_not_found' };
        const found = new Set<string>();
        for (const chunk of chunks(ids)) {
          for (const row of await trx.selectFrom('roles').select('id').where('tenant_id', '=', tenantId).where('id', 'in', chunk).execute()) found.add(row.id);
        }
        const missing = ids.find((id) => !found.has(id));
        if (missing !== undefined) return { status: 'item_not_found', id: missing };
        for (const chunk of chunks(ids)) {
          await trx
            .insertInto('organization_member_roles')
            .values(chunk.map((role_id) => ({ tenant_id: tenantId, organization_id: organizationId, user_id: userId, role_id, created_at: createdAt })))
            .onConflict((oc) => oc.columns(['tenant_id', 'organization_id', 'user_id', 'role_id']).doNothing())
            .execute();
        }
        return { status: 'assigned' };
      });
    try {
      return await attempt();
    } catch (error) {
      // A membership or role deleted concurrently, after the checks: the foreign keys refused the insert.
      if (!isForeignKeyViolation(error)) throw error;
      return attempt();
    }
  }

  removeMemberRoles(tenantId: string, organizationId: string, userId: string, roleIds: readonly string[]): Promise<boolean> {
    const ids = [...new Set(roleIds)];
    return atomically(this.db, async (trx) => {
      if (!(await new KyselyOrganizationMemberStore(trx).isMember(tenantId, organizationId, userId))) return false;
      for (const chunk of chunks(ids)) {
        await trx
          .deleteFrom('organization_member_roles')
          .where('tenant_id', '=', tenantId)
          .where('organization_id', '=', organizationId)
          .where('user_id', '=', userId)
          .where('role_id', 'in', chunk)
          .execute();
      }
      return true;
    });
  }

  listMemberRoles(tenantId: string, organizationId: string, userId: string, page: OffsetWindow): Promise<Page<RoleRow>> {
    const base = this.#memberRoles(tenantId, organizationId).where('mr.user_id', '=', userId);
    return fetchPage(base, (q) => q.selectAll('r'), 'mr.role_id', { kind: 'offset', ...page });
  }

  listUserOrganizations(tenantId: string, userId: string, page: OffsetWindow): Promise<Page<OrganizationRow>> {
    const base = this.db
      .selectFrom('organization_members as om')
      .innerJoin('organizations as o', (j) => j.onRef('o.tenant_id', '=', 'om.tenant_id').onRef('o.id', '=', 'om.organization_id'))
      .where('om.tenant_id', '=', tenantId)
      .where('om.user_id', '=', userId);
    return parsedPage('organizations', fetchPage(base, (q) => q.selectAll('o'), 'om.organization_id', { kind: 'offset', ...page }));
  }

  #memberRoles(tenantId: string, organizationId: string) {
    return this.db
      .selectFrom('organization_member_roles as mr')
      .innerJoin('roles as r', (j) => j.onRef('r.tenant_id', '=', 'mr.tenant_id').onRef('r.id', '=', 'mr.role_id'))
      .where('mr.tenant_id', '=', tenantId)
      .where('mr.organization_id', '=', organizationId);
  }
}
