/** Connection profiles (src/storage/migrations/0240_connection_profiles.ts). */
import type { ConnectionProfileStore } from '../../domain/connection-profiles/store.js';
import type { Db } from '../database.js';
import { KyselyNamedProfiles } from './named-profiles.js';

export class KyselyConnectionProfileStore extends KyselyNamedProfiles<'connection_profiles'> implements ConnectionProfileStore {
  constructor(db: Db) {
    super(db, 'connection_profiles');
  }
}
