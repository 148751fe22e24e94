/**
 * Authorization codes, kept under their SHA-256 (src/domain/secrets.ts).
 */
import type { Db } from '../database.js';
import type { AuthorizationCodeRow } from '../schema.js';

export interface AuthorizationCodeStore {
  /** Stores a new code. Fails with a unique violation on a taken hash, with a foreign-key violation on an unknown user. */
  insert(row: Omit<AuthorizationCodeRow, 'used_at' | 'refresh_family_id'>): Promise<void>;
  /** The code with this hash in the tenant, whatever its state (used, expired); undefined when unknown. */
  find(tenantId: string, codeHash: string): Promise<AuthorizationCodeRow | undefined>;
  /**
   * Marks the code used at `now`, recording the refresh-token family its use
   * may issue, if it is neither used nor expired, in one conditional UPDATE:
   * of two concurrent calls exactly one gets true (one use, RFC 6749 §4.1.2).
   */
  consume(tenantId: string, codeHash: string, now: string, refreshFamilyId: string): Promise<boolean>;
}

export class KyselyAuthorizationCodeStore implements AuthorizationCodeStore {
  constructor(private readonly db: Db) {}

  async insert(row: Omit<AuthorizationCodeRow, 'used_at' | 'refresh_family_id'>): Promise<void> {
    await this.db.insertInto('authorization_codes').values({ ...row, used_at: null, refresh_family_id: null }).execute();
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
