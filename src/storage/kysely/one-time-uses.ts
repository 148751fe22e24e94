/**
 * Once-usable identifiers (migration 0014): one conditional upsert per use.
 * A new key is inserted; a key whose record has expired is taken over (its
 * earlier use no longer matters); a live one changes nothing, and the
 * affected-row count says which happened.
 */
import type { Db } from '../database.js';
import type { OneTimeUseStore } from '../../domain/one-time-use/store.js';

export class KyselyOneTimeUseStore implements OneTimeUseStore {
  constructor(private readonly db: Db) {}

  async use(tenantId: string, purpose: string, keyHash: string, expiresAt: string, now: string): Promise<boolean> {
    const result = await this.db
      .insertInto('one_time_uses')
      .values({ tenant_id: tenantId, purpose, key_hash: keyHash, expires_at: expiresAt })
      .onConflict((oc) =>
        oc
          .columns(['tenant_id', 'purpose', 'key_hash'])
          .doUpdateSet({ expires_at: expiresAt })
          .where('one_time_uses.expires_at', '<=', now),
      )
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
  }

  async used(tenantId: string, purpose: string, keyHash: string, now: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('one_time_uses')
      .select('key_hash')
      .where('tenant_id', '=', tenantId)
      .where('purpose', '=', purpose)
      .where('key_hash', '=', keyHash)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return row !== undefined;
  }
}
