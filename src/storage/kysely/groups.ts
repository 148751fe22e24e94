import { sql } from 'kysely';
import { fetchPage } from '../paging.js';
import type { KeysetWindow, Page, PageQuery } from '../../domain/paging.js';
import { atomically, type Db } from '../database.js';
import { assignLinks, removeLinks, type Link } from '../links.js';
import type { RoleRow } from '../../domain/roles/model.js';
import { likeContains } from './roles.js';
import type { GroupRow } from '../../domain/groups/model.js';
import type { GroupFilter, AssignRolesResult, GroupStore } from '../../domain/groups/store.js';

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
}
