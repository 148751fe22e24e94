/** Pushed authorization requests (migration 0015): inserted once, used once. */
import type { Db } from '../database.js';
import type { PushedRequestStore } from '../../domain/pushed-requests/store.js';
import type { PushedAuthorizationRequestRow } from '../../domain/pushed-requests/rows.js';
import { fromStored, toStored } from '../json-columns.js';

export class KyselyPushedRequestStore implements PushedRequestStore {
  constructor(private readonly db: Db) {}

  async insert(row: Omit<PushedAuthorizationRequestRow, 'used_at'>): Promise<void> {
    await this.db.insertInto('pushed_authorization_requests').values(toStored('pushed_authorization_requests', { ...row, used_at: null })).execute();
  }

  async consume(tenantId: string, idHash: string, clientId: string, now: string): Promise<Record<string, string> | undefined> {
    const row = await this.db
      .updateTable('pushed_authorization_requests')
      .set({ used_at: now })
      .where('tenant_id', '=', tenantId)
      .where('id_hash', '=', idHash)
      .where('client_id', '=', clientId)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .returning('params')
      .executeTakeFirst();
    return row ? fromStored('pushed_authorization_requests', row).params : undefined;
  }
}
