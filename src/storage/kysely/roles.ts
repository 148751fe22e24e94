import { sql } from 'kysely';
import { fetchPage } from '../paging.js';
import type { Page } from '../../domain/paging.js';
import { atomically, type Db } from '../database.js';
import type { RoleRow } from '../../domain/roles/model.js';
import { ENTITY_LIMITS } from '../../domain/entity-limits.js';
import { isPostgres } from './user-search.js';
import type { RolePageQuery, RoleStore } from '../../domain/roles/store.js';

/** `%`, `_` and the escape character itself match literally in a LIKE pattern. */
export function likeContains(value: string): string {
  return `%${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export class KyselyRoleStore implements RoleStore {
  constructor(private readonly db: Db) {}

  get(tenantId: string, id: string): Promise<RoleRow | undefined> {
    return this.db.selectFrom('roles').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
  }

  async list(tenantId: string, query: RolePageQuery): Promise<Page<RoleRow>> {
    let base = this.db.selectFrom('roles').where('tenant_id', '=', tenantId);
    if (query.nameFilter !== undefined) {
      // lower() on both sides: LIKE is case-insensitive on SQLite but not on PostgreSQL.
      base = base.where(sql<boolean>`lower(name) like lower(${likeContains(query.nameFilter)}) escape '\\'`);
    }
    return fetchPage(base, (q) => q.selectAll(), 'id', { kind: 'offset', ...query });
  }

  insert(row: RoleRow): Promise<boolean> {
    return atomically(this.db, async (trx) => {
      if (isPostgres(trx)) await trx.selectFrom('tenants').select('id').where('id', '=', row.tenant_id).forNoKeyUpdate().execute();
      const { roles } = await trx.selectFrom('roles').select((eb) => eb.fn.countAll<number>().as('roles')).where('tenant_id', '=', row.tenant_id).executeTakeFirstOrThrow();
      if (Number(roles) >= ENTITY_LIMITS.rolesPerTenant) return false;
      await trx.insertInto('roles').values(row).execute();
      return true;
    });
  }

  async update(tenantId: string, id: string, changes: Partial<Pick<RoleRow, 'name' | 'description'>>): Promise<boolean> {
    if (Object.keys(changes).length === 0) return (await this.get(tenantId, id)) !== undefined;
    const result = await this.db.updateTable('roles').set(changes).where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  delete(tenantId: string, id: string): Promise<boolean> {
    return atomically(this.db, async (trx) => {
      // The foreign keys of migrations 0004 and 0011 cascade as well; deleting here keeps
      // the store's contract independent of them.
      for (const table of ['role_permissions', 'user_roles', 'group_roles'] as const) {
        await trx.deleteFrom(table).where('tenant_id', '=', tenantId).where('role_id', '=', id).execute();
      }
      const result = await trx.deleteFrom('roles').where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    });
  }
}
