/**
 * A password change and what it ends. Whoever sets a new password (the reset
 * link's page, or PATCH /api/v2/users/{id} with `password`) may be locking out
 * someone who knew the old one, so everything the old password opened goes
 * with it: the user's SSO sessions and refresh tokens are revoked in the same
 * transaction as the new hash is written. Access tokens already issued stay
 * valid until they expire (they are not looked up). The sessions' clients
 * hear of it by back-channel logout (`password-changed`).
 */
import { endUserSessions } from '../backchannel-logout/announce.js';
import type { IssuanceLookups } from '../issuance/lookups.js';
import type { Stores, UnitOfWork } from '../stores.js';
import type { UserChanges } from './store.js';

/**
 * Writes the changes, which include a new `password_hash`, and revokes the
 * user's sessions and refresh tokens, in one transaction (joining the caller's
 * when it runs inside one); false (nothing written) when the user does not exist.
 */
export function changePassword(
  unitOfWork: UnitOfWork<Pick<Stores, 'users' | 'refreshTokens' | 'sessions' | 'backchannelLogout'>>,
  tenantId: string,
  userId: string,
  changes: UserChanges & { password_hash: string },
  now: string,
  lookups: Pick<IssuanceLookups, 'client'>,
): Promise<boolean> {
  return unitOfWork.transaction(async (stores) => {
    if (!(await stores.users.update(tenantId, userId, changes))) return false;
    await endUserSessions({ stores, lookups, now: () => Date.parse(now) }, tenantId, userId, 'password-changed', { revoke: true });
    await stores.refreshTokens.revokeForUser(tenantId, userId, now);
    return true;
  });
}
