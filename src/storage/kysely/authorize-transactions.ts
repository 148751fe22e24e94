/**
 * /authorize requests waiting for a login (the hosted pages' transactions),
 * kept under the SHA-256 of their transaction id (src/domain/secrets.ts).
 */
import type { Db } from '../database.js';
import type { AuthorizationRequestRow } from '../schema.js';

export interface AuthorizationRequestStore {
  /** Stores a new request. Fails with a unique violation on a taken hash. */
  insert(row: Omit<AuthorizationRequestRow, 'used_at'>): Promise<void>;
  /** The request when usable at `now` (ISO): not used and not expired; undefined otherwise. Does not consume it. */
  findUsable(tenantId: string, idHash: string, now: string): Promise<AuthorizationRequestRow | undefined>;
  /**
   * Marks the request used at `now` if it is still usable, in one conditional
   * UPDATE, so of two concurrent calls exactly one gets true.
   */
  consume(tenantId: string, idHash: string, now: string): Promise<boolean>;
}

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
