import type { Db } from '../database.js';
import type { SigningKeyRow } from '../schema.js';
import type { SigningKeyStore } from '../../domain/keys/store.js';
import { parsedRows, toStored } from '../json-columns.js';
export class KyselySigningKeyStore implements SigningKeyStore {
  constructor(private readonly db: Db) {}

  async insert(row: SigningKeyRow): Promise<void> {
    await this.db.insertInto('signing_keys').values(toStored('signing_keys', row)).execute();
  }

  async listByTenant(tenantId: string): Promise<SigningKeyRow[]> {
    return parsedRows('signing_keys', this.db.selectFrom('signing_keys').selectAll().where('tenant_id', '=', tenantId).orderBy('created_at').orderBy('kid').execute());
  }
}
