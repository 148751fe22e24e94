/** Rate limit policies (src/storage/migrations/0275_rate_limit_policies.ts). */
import type { KeysetWindow } from '../../domain/paging.js';
import type { RateLimitPolicyRow } from '../../domain/rate-limit-policies/rows.js';
import type { RateLimitPolicyFilter, RateLimitPolicyStore } from '../../domain/rate-limit-policies/store.js';
import type { Db } from '../database.js';
import { parsedRow, parsedRows, toStored } from '../json-columns.js';

export class KyselyRateLimitPolicyStore implements RateLimitPolicyStore {
  constructor(private readonly db: Db) {}

  list(tenantId: string): Promise<RateLimitPolicyRow[]> {
    return parsedRows('rate_limit_policies', this.db.selectFrom('rate_limit_policies').selectAll().where('tenant_id', '=', tenantId).orderBy('id').execute());
  }

  page(tenantId: string, filter: RateLimitPolicyFilter, window: KeysetWindow): Promise<RateLimitPolicyRow[]> {
    let query = this.db.selectFrom('rate_limit_policies').selectAll().where('tenant_id', '=', tenantId);
    if (filter.resource !== undefined) query = query.where('resource', '=', filter.resource);
    if (filter.consumer !== undefined) query = query.where('consumer', '=', filter.consumer);
    if (filter.consumer_selector !== undefined) query = query.where('consumer_selector', '=', filter.consumer_selector);
    if (window.after !== undefined) query = query.where('id', '>', window.after);
    return parsedRows('rate_limit_policies', query.orderBy('id').limit(window.limit).execute());
  }

  get(tenantId: string, id: string): Promise<RateLimitPolicyRow | undefined> {
    return parsedRow('rate_limit_policies', this.db.selectFrom('rate_limit_policies').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst());
  }

  async insert(row: RateLimitPolicyRow): Promise<void> {
    await this.db.insertInto('rate_limit_policies').values(toStored('rate_limit_policies', row)).execute();
  }

  async update(tenantId: string, id: string, configuration: RateLimitPolicyRow['configuration'], updatedAt: string): Promise<boolean> {
    const result = await this.db
      .updateTable('rate_limit_policies')
      .set(toStored('rate_limit_policies', { configuration, updated_at: updatedAt }))
      .where('tenant_id', '=', tenantId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async delete(tenantId: string, id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('rate_limit_policies').where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
