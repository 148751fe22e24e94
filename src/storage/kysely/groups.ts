import { sql } from 'kysely';
import { fetchPage } from '../paging.js';
import type { KeysetWindow, Page, PageQuery } from '../../domain/paging.js';
import { atomically, type Db } from '../database.js';
import { assignLinks, chunks, removeLinks, type Link } from '../links.js';
import type { RoleRow } from '../../domain/roles/model.js';
import { likeContains } from './roles.js';
import type { GroupRow } from '../../domain/groups/model.js';
import type { GroupFilter, AssignRolesResult, GroupStore } from '../../domain/groups/store.js';
import type { RoleWithSources } from '../../domain/rbac/store.js';

/** group_roles, written from the group's side. */
const GROUP_ROLES: Link = { table: 'group_roles', owner: { side: 'group', column: 'group_id' }, item: { side: 'role', column: 'role_id' } };

export class KyselyGroupStore implements GroupStore {
  constructor(private readonly db: Db) {}

  get(tenantId: string, id: string): Promise<GroupRow | undefined> {
    return this.db.selectFrom('groups').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
  }

  async list(tenantId: string, filter: GroupFilter, page: PageQuery): Promise<Page<GroupRow>> {
    let base = this.db.selectFrom('groups').where('tenant_id', '=', tenantId);
    if (filter.connection_id !== undefined) base = base.where('connection_id', '=', filter.connection_id);
    if (filter.name !== undefined) base = base.where('name', '=', filter.name);
    if (filter.external_id !== undefined) base = base.where('external_id', '=', filter.external_id);
    if (filter.search !== undefined) {
      // lower() on both sides: LIKE is case-insensitive on SQLite but not on PostgreSQL.
      const pattern = likeContains(filter.search);
      base = base.where(
        sql<boolean>`(lower(name) like lower(${pattern}) escape '\\' or lower(external_id) like lower(${pattern}) escape '\\')`,
      );
    }
    return fetchPage(base, (q) => q.selectAll(), 'id', page);
  }

  async insert(row: GroupRow): Promise<void> {
    await this.db.insertInto('groups').values(row).execute();
  }

  async update(tenantId: string, id: string, changes: Pick<GroupRow, 'name' | 'external_id' | 'updated_at'>): Promise<boolean> {
    const result = await this.db.updateTable('groups').set(changes).where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  delete(tenantId: string, id: string): Promise<boolean> {
    return atomically(this.db, async (trx) => {
      for (const table of ['group_members', 'group_roles'] as const) {
        await trx.deleteFrom(table).where('tenant_id', '=', tenantId).where('group_id', '=', id).execute();
      }
      const result = await trx.deleteFrom('groups').where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    });
  }

  listRoles(tenantId: string, groupId: string, page: KeysetWindow): Promise<RoleRow[]> {
    let q = this.db
      .selectFrom('group_roles')
      .innerJoin('roles', (join) => join.onRef('roles.tenant_id', '=', 'group_roles.tenant_id').onRef('roles.id', '=', 'group_roles.role_id'))
      .where('group_roles.tenant_id', '=', tenantId)
      .where('group_roles.group_id', '=', groupId);
    if (page.after !== undefined) q = q.where('group_roles.role_id', '>', page.after);
    return q
      .select(['roles.tenant_id', 'roles.id', 'roles.name', 'roles.description', 'roles.created_at'])
      .orderBy('group_roles.role_id')
      .limit(page.limit)
      .execute();
  }

  async assignRoles(tenantId: string, groupId: string, roleIds: readonly string[], createdAt: string): Promise<AssignRolesResult> {
    const result = await assignLinks(this.db, GROUP_ROLES, tenantId, groupId, roleIds, createdAt);
    if (result.status === 'owner_not_found') return { status: 'group_not_found' };
    if (result.status === 'item_not_found') return { status: 'role_not_found', roleId: result.id };
    return result;
  }

  removeRoles(tenantId: string, groupId: string, roleIds: readonly string[]): Promise<boolean> {
    return removeLinks(this.db, GROUP_ROLES, tenantId, groupId, roleIds);
  }

  /** Groups of the organization: its own, and those of the connections enabled for it (organization_connections' key). */
  #organizationGroups(tenantId: string, organizationId: string) {
    return this.db
      .selectFrom('groups')
      .where('tenant_id', '=', tenantId)
      .where((eb) =>
        eb.or([
          eb('organization_id', '=', organizationId),
          eb(
            'connection_id',
            'in',
            eb.selectFrom('organization_connections').select('connection_id').where('tenant_id', '=', tenantId).where('organization_id', '=', organizationId),
          ),
        ]),
      );
  }

  listOrganizationGroups(tenantId: string, organizationId: string, window: KeysetWindow): Promise<GroupRow[]> {
    let q = this.#organizationGroups(tenantId, organizationId);
    if (window.after !== undefined) q = q.where('id', '>', window.after);
    return q.selectAll().orderBy('id').limit(window.limit).execute();
  }

  getOrganizationGroup(tenantId: string, organizationId: string, groupId: string): Promise<GroupRow | undefined> {
    return this.#organizationGroups(tenantId, organizationId).where('id', '=', groupId).selectAll().executeTakeFirst();
  }

  listOrganizationGroupRoles(tenantId: string, organizationId: string, groupId: string, window: KeysetWindow): Promise<RoleRow[]> {
    let q = this.db
      .selectFrom('organization_group_roles as ogr')
      .innerJoin('roles', (join) => join.onRef('roles.tenant_id', '=', 'ogr.tenant_id').onRef('roles.id', '=', 'ogr.role_id'))
      .where('ogr.tenant_id', '=', tenantId)
      .where('ogr.organization_id', '=', organizationId)
      .where('ogr.group_id', '=', groupId);
    if (window.after !== undefined) q = q.where('ogr.role_id', '>', window.after);
    return q.select(['roles.tenant_id', 'roles.id', 'roles.name', 'roles.description', 'roles.created_at']).orderBy('ogr.role_id').limit(window.limit).execute();
  }

  assignOrganizationGroupRoles(tenantId: string, organizationId: string, groupId: string, roleIds: readonly string[], createdAt: string): Promise<AssignRolesResult> {
    const ids = [...new Set(roleIds)];
    return atomically(this.db, async (trx): Promise<AssignRolesResult> => {
      const found = new Set<string>();
      for (const chunk of chunks(ids)) {
        for (const row of await trx.selectFrom('roles').select('id').where('tenant_id', '=', tenantId).where('id', 'in', chunk).execute()) found.add(row.id);
      }
      const missing = ids.find((id) => !found.has(id));
      if (missing !== undefined) return { status: 'role_not_found', roleId: missing };
      for (const chunk of chunks(ids)) {
        await trx
          .insertInto('organization_group_roles')
          .values(chunk.map((role_id) => ({ tenant_id: tenantId, organization_id: organizationId, group_id: groupId, role_id, created_at: createdAt })))
          .onConflict((oc) => oc.columns(['tenant_id', 'organization_id', 'group_id', 'role_id']).doNothing())
          .execute();
      }
      return { status: 'assigned' };
    });
  }

  async removeOrganizationGroupRoles(tenantId: string, organizationId: string, groupId: string, roleIds: readonly string[]): Promise<void> {
    for (const chunk of chunks([...new Set(roleIds)])) {
      await this.db
        .deleteFrom('organization_group_roles')
        .where('tenant_id', '=', tenantId)
        .where('organization_id', '=', organizationId)
        .where('group_id', '=', groupId)
        .where('role_id', 'in', chunk)
        .execute();
    }
  }

  /** The user's groups (group_members_user_idx). */
  #groupsOf(tenantId: string, userId: string) {
    return this.db.selectFrom('group_members').select('group_id').where('tenant_id', '=', tenantId).where('user_id', '=', userId);
  }

  async listOrganizationMemberEffectiveRoles(tenantId: string, organizationId: string, userId: string, window: KeysetWindow): Promise<RoleWithSources[]> {
    const sources = this.db
      .selectFrom('organization_member_roles')
      .select(['role_id', sql<number>`1`.as('direct'), sql<number>`0`.as('via_groups')])
      .where('tenant_id', '=', tenantId)
      .where('organization_id', '=', organizationId)
      .where('user_id', '=', userId)
      .unionAll(
        this.db
          .selectFrom('organization_group_roles')
          .select(['role_id', sql<number>`0`.as('direct'), sql<number>`1`.as('via_groups')])
          .where('tenant_id', '=', tenantId)
          .where('organization_id', '=', organizationId)
          .where('group_id', 'in', this.#groupsOf(tenantId, userId)),
      );
    let held = this.db
      .selectFrom(sources.as('s'))
      .select((eb) => ['s.role_id', eb.fn.max('s.direct').as('direct'), eb.fn.max('s.via_groups').as('via_groups')])
      .groupBy('s.role_id');
    if (window.after !== undefined) held = held.where('s.role_id', '>', window.after);
    const rows = await this.db
      .selectFrom(held.as('h'))
      .innerJoin('roles as r', (join) => join.onRef('r.id', '=', 'h.role_id'))
      .where('r.tenant_id', '=', tenantId)
      .select(['r.tenant_id', 'r.id', 'r.name', 'r.description', 'r.created_at', 'h.direct', 'h.via_groups'])
      .orderBy('h.role_id')
      .limit(window.limit)
      .execute();
    return rows.map(({ direct, via_groups, ...role }) => ({ role, direct: Number(direct) === 1, viaGroups: Number(via_groups) === 1 }));
  }

  listOrganizationMemberRoleSourceGroups(tenantId: string, organizationId: string, userId: string, roleId: string, window: KeysetWindow): Promise<GroupRow[]> {
    let q = this.db
      .selectFrom('groups')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('id', 'in', this.#groupsOf(tenantId, userId))
      .where('id', 'in', this.db.selectFrom('organization_group_roles').select('group_id').where('tenant_id', '=', tenantId).where('organization_id', '=', organizationId).where('role_id', '=', roleId));
    if (window.after !== undefined) q = q.where('id', '>', window.after);
    return q.orderBy('id').limit(window.limit).execute();
  }
}
