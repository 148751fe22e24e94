/** The Duo factor's settings (src/storage/migrations/0276_guardian_duo.ts). */
import type { DuoSettings, GuardianDuoStore } from '../../domain/guardian/duo.js';
import type { Db } from '../database.js';

export class KyselyGuardianDuoStore implements GuardianDuoStore {
  constructor(private readonly db: Db) {}

  get(tenantId: string): Promise<DuoSettings | undefined> {
    return this.db.selectFrom('guardian_duo').select(['ikey', 'host', 'skey_enc']).where('tenant_id', '=', tenantId).executeTakeFirst();
  }

  async set(tenantId: string, settings: DuoSettings, updatedAt: string): Promise<void> {
    const values = { ikey: settings.ikey, host: settings.host, skey_enc: settings.skey_enc, updated_at: updatedAt };
    await this.db
      .insertInto('guardian_duo')
      .values({ tenant_id: tenantId, ...values })
      .onConflict((oc) => oc.column('tenant_id').doUpdateSet(values))
      .execute();
  }
}
