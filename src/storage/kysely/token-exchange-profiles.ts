import type { TokenExchangeProfileChanges, TokenExchangeProfileStore } from '../../domain/token-exchange-profiles/store.js';
import type { TokenExchangeProfileRow } from '../../domain/token-exchange-profiles/rows.js';
import { isUniqueViolation } from '../../platform/database-errors.js';
import type { Db } from '../database.js';

export class KyselyTokenExchangeProfileStore implements TokenExchangeProfileStore {
  constructor(private readonly db: Db) {}

  async list(tenantId: string, after: string | undefined, limit: number): Promise<TokenExchangeProfileRow[]> {
    let query = this.db.selectFrom('token_exchange_profiles').selectAll().where('tenant_id', '=', tenantId);
    if (after !== undefined) query = query.where('id', '>', after);
    return (await query.orderBy('id').limit(limit).execute()) as TokenExchangeProfileRow[];
  }

  async count(tenantId: string): Promise<number> {
    const row = await this.db.selectFrom('token_exchange_profiles').select((eb) => eb.fn.countAll<string | number>().as('n')).where('tenant_id', '=', tenantId).executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async get(tenantId: string, id: string): Promise<TokenExchangeProfileRow | undefined> {
    return (await this.db.selectFrom('token_exchange_profiles').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst()) as TokenExchangeProfileRow | undefined;
  }

  async bySubjectTokenType(tenantId: string, subjectTokenType: string): Promise<TokenExchangeProfileRow | undefined> {
    return (await this.db
      .selectFrom('token_exchange_profiles')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('subject_token_type', '=', subjectTokenType)
      .executeTakeFirst()) as TokenExchangeProfileRow | undefined;
  }

  async create(row: TokenExchangeProfileRow): Promise<boolean> {
    if (await this.bySubjectTokenType(row.tenant_id, row.subject_token_type)) return false;
    try {
      await this.db.insertInto('token_exchange_profiles').values(row).execute();
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  async update(tenantId: string, id: string, changes: TokenExchangeProfileChanges, now: string): Promise<TokenExchangeProfileRow | undefined | 'conflict'> {
    if (changes.subject_token_type !== undefined) {
      const other = await this.bySubjectTokenType(tenantId, changes.subject_token_type);
      if (other && other.id !== id) return 'conflict';
    }
    await this.db.updateTable('token_exchange_profiles').set({ ...changes, updated_at: now }).where('tenant_id', '=', tenantId).where('id', '=', id).execute();
    return this.get(tenantId, id);
  }

  async delete(tenantId: string, id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('token_exchange_profiles').where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
