/**
 * post-change-password (actions-wire-notes §2.6): after a database user's
 * password was reset (the reset page of an emailed or Management API ticket)
 * or changed (Management API `PATCH /users/{id}` with `password`: the
 * service's docs say the trigger runs when a password "is reset or changed",
 * and the Management API is the one way to change it besides a reset),
 * asynchronously: nothing the actions do, nor their failure, changes the
 * flow. Their event carries no password, nor its hash.
 */
import type { UserRow } from '../users/rows.js';
import type { ActionsRuntime } from './runtime.js';
import type { EventRequest } from './triggers/event-parts.js';
import { postChangePassword } from './triggers/after-the-fact.js';

export interface PasswordChange {
  tenantId: string;
  user: Pick<UserRow, 'user_id' | 'email' | 'email_verified' | 'phone_number' | 'username' | 'last_password_reset'>;
  connection: { id: string; name: string };
  request?: EventRequest;
}

/** Runs the bound actions after the fact; a lookup and nothing else when none is bound. */
export function runPostChangePassword(actions: ActionsRuntime, change: PasswordChange): void {
  const { user } = change;
  void actions.bound(change.tenantId, 'post-change-password').then((bound) => {
    if (bound.length === 0) return;
    actions.runDetached(change.tenantId, postChangePassword, {
      tenant: { id: change.tenantId },
      user: {
        user_id: user.user_id,
        ...(user.email !== null && { email: user.email }),
        email_verified: user.email_verified === 1,
        ...(user.phone_number !== null && { phone_number: user.phone_number }),
        ...(user.username !== null && { username: user.username }),
        ...(user.last_password_reset !== null && { last_password_reset: user.last_password_reset }),
      },
      connection: { id: change.connection.id, name: change.connection.name, strategy: 'auth0' },
      ...(change.request && { request: change.request }),
    });
  }, () => undefined);
}
