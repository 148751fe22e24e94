import { atomically, type Db } from '../database.js';
import type { ResourceServerRow } from '../../domain/resource-servers/model.js';
import type { ResourceServerStore } from '../../domain/resource-servers/store.js';
import { parsedRow, toStored } from '../json-columns.js';
import { fetchPage, parsedPage } from '../paging.js';
import type { OffsetWindow, Page } from '../../domain/paging.js';

export class KyselyResourceServerStore implements ResourceServerStore {
  constructor(private readonly db: Db) {}

  get(tenantId: string, id: string): Promise<ResourceServerRow | undefined> {
    return parsedRow('resource_servers', this.db.selectFrom('resource_servers').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst());
  }

  getByIdentifier(tenantId: string, identifier: string): Promise<ResourceServerRow | undefined> {
    return parsedRow(
      'resource_servers',
      this.db.selectFrom('resource_servers').selectAll().where('tenant_id', '=', tenantId).where('identifier', '=', identifier).executeTakeFirst(),
    );
  }

  async list(
    tenantId: string,
    query: OffsetWindow & { identifiers?: string[] },
  ): Promise<Page<ResourceServerRow>> {
    let base = this.db.selectFrom('resource_servers').where('tenant_id', '=', tenantId);
    if (query.identifiers?.length) base = base.where('identifier', 'in', query.identifiers);
    return parsedPage('resource_servers', fetchPage(base, (q) => q.selectAll(), 'id', { kind: 'offset', ...query }, { order: (q) => q.orderBy('created_at').orderBy('id') }));
  }

  async insert(row: ResourceServerRow): Promise<void> {
    await this.db.insertInto('resource_servers').values(toStored('resource_servers', row)).execute();
  }

  async update(tenantId: string, id: string, changes: Partial<ResourceServerRow>): Promise<boolean> {
    const result = await this.db
      .updateTable('resource_servers')
      .set(toStored('resource_servers', changes))
      .where('tenant_id', '=', tenantId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async delete(tenantId: string, id: string): Promise<boolean> {
    return atomically(this.db, async (trx) => {
      const row = await trx
        .selectFrom('resource_servers')
        .select('identifier')
        .where('tenant_id', '=', tenantId)
        .where('id', '=', id)
        .executeTakeFirst();
      if (!row) return false;
      await trx.deleteFrom('client_grants').where('tenant_id', '=', tenantId).where('audience', '=', row.identifier).execute();
      for (const table of ['role_permissions', 'user_permissions'] as const) {
        await trx.deleteFrom(table).where('tenant_id', '=', tenantId).where('resource_server_identifier', '=', row.identifier).execute();
      }
      await trx.deleteFrom('resource_servers').where('tenant_id', '=', tenantId).where('id', '=', id).execute();
      return true;
    });
  }
}
