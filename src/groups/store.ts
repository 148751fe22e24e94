import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import type { RoleRow } from '../roles/model.js';
import { likeContains } from '../roles/store.js';
import type { GroupRow } from './model.js';

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
  /** Deletes the group and its role assignments, atomically; false when the group does not exist. */
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

/**
 * Ids per statement: the role list of one request is bounded only by the body
 * size (1 MiB, some 45,000 ids), beyond both databases' limits on bound
 * parameters (32,766 for SQLite, 65,535 for PostgreSQL).
 */
const CHUNK = 500;

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

/** A foreign-key violation, on either database. */
function isForeignKeyViolation(error: unknown): boolean {
  const e = error as { code?: string };
  return e?.code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || e?.code === '23503';
}

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
      await trx.deleteFrom('group_roles').where('tenant_id', '=', tenantId).where('group_id', '=', id).execute();
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
    const ids = [...new Set(roleIds)];
    try {
      return await this.db.transaction().execute(async (trx): Promise<AssignRolesResult> => {
        const group = await trx.selectFrom('groups').select('id').where('tenant_id', '=', tenantId).where('id', '=', groupId).executeTakeFirst();
        if (!group) return { status: 'group_not_found' };
        const found = new Set<string>();
        for (const chunk of chunks(ids)) {
          const rows = await trx.selectFrom('roles').select('id').where('tenant_id', '=', tenantId).where('id', 'in', chunk).execute();
          for (const row of rows) found.add(row.id);
        }
        const missing = ids.find((id) => !found.has(id));
        if (missing !== undefined) return { status: 'role_not_found', roleId: missing };
        for (const chunk of chunks(ids)) {
          await trx
            .insertInto('group_roles')
            .values(chunk.map((roleId) => ({ tenant_id: tenantId, group_id: groupId, role_id: roleId, created_at: createdAt })))
            .onConflict((oc) => oc.columns(['tenant_id', 'group_id', 'role_id']).doNothing())
            .execute();
        }
        return { status: 'assigned' };
      });
    } catch (error) {
      // The group or a role was deleted by a concurrent transaction after the checks
      // above; the foreign keys refused the insert and the transaction rolled back.
      if (!isForeignKeyViolation(error)) throw error;
      if (!(await this.get(tenantId, groupId))) return { status: 'group_not_found' };
      const present = new Set<string>();
      for (const chunk of chunks(ids)) {
        const rows = await this.db.selectFrom('roles').select('id').where('tenant_id', '=', tenantId).where('id', 'in', chunk).execute();
        for (const row of rows) present.add(row.id);
      }
      return { status: 'role_not_found', roleId: ids.find((id) => !present.has(id)) ?? ids[0]! };
    }
  }

  removeRoles(tenantId: string, groupId: string, roleIds: readonly string[]): Promise<boolean> {
    const ids = [...new Set(roleIds)];
    return this.db.transaction().execute(async (trx) => {
      const group = await trx.selectFrom('groups').select('id').where('tenant_id', '=', tenantId).where('id', '=', groupId).executeTakeFirst();
      if (!group) return false;
      for (const chunk of chunks(ids)) {
        await trx
          .deleteFrom('group_roles')
          .where('tenant_id', '=', tenantId)
          .where('group_id', '=', groupId)
          .where('role_id', 'in', chunk)
          .execute();
      }
      return true;
    });
  }
}
