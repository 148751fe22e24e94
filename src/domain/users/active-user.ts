/**
 * The one rule for "a user who may still act": the user exists and is not
 * blocked. Every surface that answers for a user (the code and refresh
 * grants, /userinfo, a login session) asks here; each says how it refuses.
 */
import type { UserRow } from '../rows.js';
import type { UserStore } from './store.js';

/** Whether the user exists and is not blocked. */
export function isActive(user: UserRow | undefined): user is UserRow {
  return user !== undefined && user.blocked !== 1;
}

/** The user when active; otherwise the surface's refusal for a missing or a blocked user. */
export async function requireActiveUser(
  users: Pick<UserStore, 'get'>,
  tenantId: string,
  userId: string,
  refusals: { missing: () => Error; blocked: () => Error },
): Promise<UserRow> {
  const user = await users.get(tenantId, userId);
  if (!user) throw refusals.missing();
  if (!isActive(user)) throw refusals.blocked();
  return user;
}
