/**
 * Authorization codes, kept under their SHA-256 (src/domain/secrets.ts).
 */
import type { Db } from '../database.js';
import type { AuthorizationCodeRow } from '../schema.js';
import type { AuthorizationCodeStore } from '../../domain/authorization-codes/store.js';

export class KyselyAuthorizationCodeStore implements AuthorizationCodeStore {
  constructor(private readonly db: Db) {}

  async insert(
    row: Omit<AuthorizationCodeRow, 'used_at' | 'refresh_family_id' | 'amr' | 'organization_id'> & Partial<Pick<AuthorizationCodeRow, 'amr'>> & { organization_id?: string | null },
  ): Promise<void> {
    await this.db.insertInto('authorization_codes').values({ amr: null, ...row, organization_id: row.organization_id ?? null, used_at: null, refresh_family_id: null }).execute();
  }

  find(tenantId: string, codeHash: string): Promise<AuthorizationCodeRow | undefined> {
    return this.db.selectFrom('authorization_codes').selectAll().where('tenant_id', '=', tenantId).where('code_hash', '=', codeHash).executeTakeFirst();
  }

  async consume(tenantId: string, codeHash: string, now: string, refreshFamilyId: string): Promise<boolean> {
    const result = await this.db
      .updateTable('authorization_codes')
      .set({ used_at: now, refresh_family_id: refreshFamilyId })
      .where('tenant_id', '=', tenantId)
      .where('code_hash', '=', codeHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}
