/**
 * SSO sessions: the `__Host-gh_session` cookie's value is known only to the
 * browser; the store keeps its SHA-256 (src/domain/secrets.ts).
 */
import type { Db } from '../database.js';
import type { SessionRow } from '../schema.js';

export interface SessionStore {
  /** Stores a new session. Fails with a unique violation on a taken hash, with a foreign-key violation on an unknown user. */
  insert(row: Omit<SessionRow, 'revoked_at'>): Promise<void>;
  /** The session when it is active at `now` (ISO): not revoked and `expires_at` later than `now`; undefined otherwise. */
  findActive(tenantId: string, idHash: string, now: string): Promise<SessionRow | undefined>;
  /** Revokes the session at `now`; false when it is unknown or already revoked. */
  revoke(tenantId: string, idHash: string, now: string): Promise<boolean>;
  /** Revokes at `now` every session of the user not already revoked; returns how many were revoked. */
  revokeForUser(tenantId: string, userId: string, now: string): Promise<number>;
}

export class KyselySessionStore implements SessionStore {
  constructor(private readonly db: Db) {}

  async insert(row: Omit<SessionRow, 'revoked_at'>): Promise<void> {
    await this.db.insertInto('sessions').values({ ...row, revoked_at: null }).execute();
  }

  findActive(tenantId: string, idHash: string, now: string): Promise<SessionRow | undefined> {
    return this.db
      .selectFrom('sessions')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('id_hash', '=', idHash)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
  }

  async revoke(tenantId: string, idHash: string, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('sessions')
      .set({ revoked_at: now })
      .where('tenant_id', '=', tenantId)
      .where('id_hash', '=', idHash)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async revokeForUser(tenantId: string, userId: string, now: string): Promise<number> {
    const result = await this.db
      .updateTable('sessions')
      .set({ revoked_at: now })
      .where('tenant_id', '=', tenantId)
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }
}
