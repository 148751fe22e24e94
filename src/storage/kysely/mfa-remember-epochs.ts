/** MFA's remembered-browser epochs (src/storage/migrations/0246_mfa_remember_epochs.ts). */
import { sql } from 'kysely';
import type { Db } from '../database.js';
import type { MfaRememberEpochStore } from '../../domain/mfa/store.js';

export class KyselyMfaRememberEpochStore implements MfaRememberEpochStore {
  constructor(private readonly db: Db) {}

  async epoch(tenantId: string, userId: string): Promise<number> {
    const row = await this.db.selectFrom('mfa_remember_epochs').select('epoch').where('tenant_id', '=', tenantId).where('user_id', '=', userId).executeTakeFirst();
    return row ? Number(row.epoch) : 0;
  }

  async raise(tenantId: string, userId: string, now: string): Promise<void> {
    // One statement: two raises at once both count.
    await this.db
      .insertInto('mfa_remember_epochs')
      .values({ tenant_id: tenantId, user_id: userId, epoch: 1, updated_at: now })
      .onConflict((oc) => oc.columns(['tenant_id', 'user_id']).doUpdateSet({ epoch: sql<number>`mfa_remember_epochs.epoch + 1`, updated_at: now }))
      .execute();
  }
}
