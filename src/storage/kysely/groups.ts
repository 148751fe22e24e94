import { sql } from 'kysely';
import type { Db } from '../database.js';
import { assignLinks, removeLinks, type Link } from '../links.js';
import type { RoleRow } from '../../domain/roles/model.js';
import { likeContains } from './roles.js';
import type { GroupRow } from '../../domain/groups/model.js';

export interface GroupFilter {
  connection_id?: string;
  /** Exact name. */
  name?: string;
  /** Exact external id. */
  external_id?: string;
  /** Case-insensitive substring of the name or of the external id. */
  search?: string;
}

export type GroupPageQuery =
  | { kind: 'offset'; offset: number; limit: number; withTotal: boolean }
  /** Keyset page: ids greater than `after`, ascending. */
  | { kind: 'keyset'; after?: string; limit: number };

/** What `assignRoles` did. */
export type AssignRolesResult = { status: 'assigned' } | { status: 'group_not_found' } | { status: 'role_not_found'; roleId: string };

/** Storage of groups and of the roles assigned to them. */
export interface GroupStore {
  get(tenantId: string, id: string): Promise<GroupRow | undefined>;
  /** A page of groups matching the filter, ordered by id (byte-wise on both databases). */
  list(tenantId: string, filter: GroupFilter, page: GroupPageQuery): Promise<{ rows: GroupRow[]; total?: number }>;
  /**
   * Fails with a unique violation when the id is taken, or when the name is taken
   * within the group's connection, organization, or (for tenant groups) tenant.
   */
  insert(row: GroupRow): Promise<void>;
  /** Deletes the group with its members and its role assignments, atomically; false when the group does not exist. */
  delete(tenantId: string, id: string): Promise<boolean>;
  /** The roles assigned to a group, by role id ascending, after `after` (exclusive). Empty for an unknown group. */
  listRoles(tenantId: string, groupId: string, page: { after?: string; limit: number }): Promise<RoleRow[]>;
  /**
   * Assigns every listed role to the group, or none (one transaction): nothing
   * is written when the group does not exist or any listed role does not exist
   * in the tenant (the first missing one is reported). Roles already assigned
   * stay as they are; duplicates in the list count once.
   */
  assignRoles(tenantId: string, groupId: string, roleIds: readonly string[], createdAt: string): Promise<AssignRolesResult>;
  /**
   * Removes every listed role from the group, in one transaction; false (and
   * nothing removed) when the group does not exist. Ids that are not assigned,
   * including ids of roles that do not exist, are skipped.
   */
  removeRoles(tenantId: string, groupId: string, roleIds: readonly string[]): Promise<boolean>;
}

/** group_roles, written from the group's side. */
const GROUP_ROLES: Link = { table: 'group_roles', owner: { side: 'group', column: 'group_id' }, item: { side: 'role', column: 'role_id' } };

export class KyselyGroupStore implements GroupStore {
  constructor(private readonly db: Db) {}

  get(tenantId: string, id: string): Promise<GroupRow | undefined> {
    return this.db.selectFrom('groups').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
  }

  async list(tenantId: string, filter: GroupFilter, page: GroupPageQuery): Promise<{ rows: GroupRow[]; total?: number }> {
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
    if (page.kind === 'keyset') {
      const q = page.after === undefined ? base : base.where('id', '>', page.after);
      return { rows: await q.selectAll().orderBy('id').limit(page.limit).execute() };
    }
    const rows = await base.selectAll().orderBy('id').offset(page.offset).limit(page.limit).execute();
    if (!page.withTotal) return { rows };
    const count = await base.select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow();
    return { rows, total: Number(count.n) };
  }

  async insert(row: GroupRow): Promise<void> {
    await this.db.insertInto('groups').values(row).execute();
  }

  delete(tenantId: string, id: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      for (const table of ['group_members', 'group_roles'] as const) {
        await trx.deleteFrom(table).where('tenant_id', '=', tenantId).where('group_id', '=', id).execute();
      }
      const result = await trx.deleteFrom('groups').where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    });
  }

  listRoles(tenantId: string, groupId: string, page: { after?: string; limit: number }): Promise<RoleRow[]> {
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
