/**
 * A password change and what it ends. Whoever sets a new password (the reset
 * link's page, or PATCH /api/v2/users/{id} with `password`) may be locking out
 * someone who knew the old one, so everything the old password opened goes
 * with it: the user's SSO sessions and refresh tokens are revoked in the same
 * transaction as the new hash is written. Access tokens already issued stay
 * valid until they expire (they are not looked up).
 */
import type { Db } from '../../storage/database.js';
import { KyselyRefreshTokenStore } from '../../storage/kysely/refresh-tokens.js';
import { KyselyUserStore } from '../../storage/kysely/users.js';
import { KyselySessionStore } from '../../storage/kysely/sessions.js';
import { type UserChanges } from './store.js';

/**
 * Writes the changes, which include a new `password_hash`, and revokes the
 * user's sessions and refresh tokens, in one transaction; false (nothing
 * written) when the user does not exist. `db` may already be a transaction.
 */
export async function changePassword(db: Db, tenantId: string, userId: string, changes: UserChanges & { password_hash: string }, now: string): Promise<boolean> {
  const apply = async (trx: Db) => {
    if (!(await new KyselyUserStore(trx).update(tenantId, userId, changes))) return false;
    await new KyselySessionStore(trx).revokeForUser(tenantId, userId, now);
    await new KyselyRefreshTokenStore(trx).revokeForUser(tenantId, userId, now);
    return true;
  };
  return db.isTransaction ? apply(db) : db.transaction().execute(apply);
}
