/**
 * Logins through a linked identity. A row linked to another user
 * (POST /api/v2/users/{id}/identities) keeps its connection's credentials: a
 * login finds it by them as before, and is then the login of the user it is
 * linked to, whose id becomes the tokens' `sub`.
 */
import type { UserRow } from './model.js';
import type { UserStore } from './store.js';

/** The user a login that found `row` is for: the row itself, or the user it is linked to (undefined if that one is gone). */
export async function userLoggingIn(users: Pick<UserStore, 'get'>, row: UserRow): Promise<UserRow | undefined> {
  if (row.linked_to === null || row.linked_to === undefined) return row;
  return users.get(row.tenant_id, row.linked_to);
}
