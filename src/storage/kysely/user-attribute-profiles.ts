/** User attribute profiles (src/storage/migrations/0241_user_attribute_profiles.ts). */
import type { UserAttributeProfileStore } from '../../domain/user-attribute-profiles/store.js';
import type { Db } from '../database.js';
import { KyselyNamedProfiles } from './named-profiles.js';

export class KyselyUserAttributeProfileStore extends KyselyNamedProfiles<'user_attribute_profiles'> implements UserAttributeProfileStore {
  constructor(db: Db) {
    super(db, 'user_attribute_profiles');
  }

  async selfServiceProfilesUsing(tenantId: string, id: string, limit: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('self_service_profiles')
      .select('id')
      .where('tenant_id', '=', tenantId)
      .where('user_attribute_profile_id', '=', id)
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map((row) => row.id);
  }
}
