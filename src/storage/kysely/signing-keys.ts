import type { Db } from '../database.js';
import type { SigningKeyRow } from '../schema.js';

export type { SigningKeyRow } from '../../domain/rows.js';

/** Storage of tenant signing keys. The private part arrives here already sealed. */
export interface SigningKeyStore {
  /** Inserts a key; fails if the (tenant, kid) pair exists. */
  insert(row: SigningKeyRow): Promise<void>;
  /** Every key of the tenant, oldest first. */
  listByTenant(tenantId: string): Promise<SigningKeyRow[]>;
}

export class KyselySigningKeyStore implements SigningKeyStore {
  constructor(private readonly db: Db) {}

  async insert(row: SigningKeyRow): Promise<void> {
    await this.db.insertInto('signing_keys').values(row).execute();
  }

  async listByTenant(tenantId: string): Promise<SigningKeyRow[]> {
    return this.db
      .selectFrom('signing_keys')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .orderBy('created_at')
      .orderBy('kid')
      .execute();
  }
}
