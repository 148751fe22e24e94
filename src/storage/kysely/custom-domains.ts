/** Custom domains (migration 0017). */
import { atomically, type Db } from '../database.js';
import type { CustomDomainStore } from '../../domain/custom-domains/store.js';
import type { CustomDomainRow } from '../../domain/custom-domains/rows.js';
import { parsedRow, parsedRows, toStored } from '../json-columns.js';

export class KyselyCustomDomainStore implements CustomDomainStore {
  constructor(private readonly db: Db) {}

  async insert(row: CustomDomainRow): Promise<void> {
    await this.db.insertInto('custom_domains').values(toStored('custom_domains', row)).execute();
  }

  get(tenantId: string, id: string): Promise<CustomDomainRow | undefined> {
    return parsedRow('custom_domains', this.db.selectFrom('custom_domains').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst());
  }

  list(tenantId: string): Promise<CustomDomainRow[]> {
    return parsedRows('custom_domains', this.db.selectFrom('custom_domains').selectAll().where('tenant_id', '=', tenantId).orderBy('domain').execute());
  }

  findReady(domain: string): Promise<CustomDomainRow | undefined> {
    return parsedRow('custom_domains', this.db.selectFrom('custom_domains').selectAll().where('domain', '=', domain).where('status', '=', 'ready').executeTakeFirst());
  }

  async update(tenantId: string, id: string, changes: Parameters<CustomDomainStore['update']>[2]): Promise<boolean> {
    const result = await this.db.updateTable('custom_domains').set(toStored('custom_domains', changes)).where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async delete(tenantId: string, id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('custom_domains').where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  findDefault(tenantId: string): Promise<CustomDomainRow | undefined> {
    return parsedRow(
      'custom_domains',
      this.db.selectFrom('custom_domains').selectAll().where('tenant_id', '=', tenantId).where('is_default', '=', 1).where('status', '=', 'ready').executeTakeFirst(),
    );
  }

  setDefault(tenantId: string, id: string | null): Promise<boolean> {
    return atomically(this.db, async (trx) => {
      await trx.updateTable('custom_domains').set({ is_default: null }).where('tenant_id', '=', tenantId).where('is_default', '=', 1).execute();
      if (id === null) return true;
      const result = await trx.updateTable('custom_domains').set({ is_default: 1 }).where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    });
  }

  async edgeKeyHashes(tenantId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('custom_domains')
      .select('edge_key_hash')
      .where('tenant_id', '=', tenantId)
      .where('status', '=', 'ready')
      .where('type', '=', 'self_managed_certs')
      .where('edge_key_hash', 'is not', null)
      .execute();
    return rows.map((r) => r.edge_key_hash!);
  }
}
