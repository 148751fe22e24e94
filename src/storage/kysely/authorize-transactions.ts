/**
 * /authorize requests waiting for a login (the hosted pages' transactions),
 * kept under the SHA-256 of their transaction id (src/domain/secrets.ts).
 */
import type { Db } from '../database.js';
import type { AuthorizationRequestRow } from '../schema.js';
import type { AuthorizationRequestStore } from '../../domain/authorize-transactions/store.js';

export class KyselyAuthorizationRequestStore implements AuthorizationRequestStore {
  constructor(private readonly db: Db) {}

  async insert(row: Omit<AuthorizationRequestRow, 'used_at'>): Promise<void> {
    await this.db.insertInto('authorization_requests').values({ ...row, used_at: null }).execute();
  }

  findUsable(tenantId: string, idHash: string, now: string): Promise<AuthorizationRequestRow | undefined> {
    return this.db
      .selectFrom('authorization_requests')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('id_hash', '=', idHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
  }

  async consume(tenantId: string, idHash: string, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('authorization_requests')
      .set({ used_at: now })
      .where('tenant_id', '=', tenantId)
      .where('id_hash', '=', idHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}
