/**
 * Password login against a database connection's users: the step the
 * password grants and the hosted login page call. The identifier the user
 * typed is matched against the email or the username (the service takes
 * either in `username`, authentication-api-wire-notes §5.1), both
 * case-insensitively through their lower-cased copies. An imported bcrypt hash (or
 * an argon2id hash with outdated parameters) is replaced by a fresh argon2id
 * hash after the first successful verification, while the plaintext is at hand.
 * An unknown identifier (or a user without a password) still costs one
 * argon2id verification, against a hash of a random password made once, so
 * the answer's timing does not tell which accounts exist.
 */
import { randomBytes } from 'node:crypto';
import { hashPassword, verifyPassword } from '../../platform/passwords/hashing.js';
import { isoAt } from '../../platform/clock.js';
import type { UserRow } from './model.js';
import type { UserStore } from './store.js';
import { userLoggingIn } from './linked.js';

/**
 * The user when `password` matches; undefined for an unknown identifier, a
 * user without a password, or a wrong password (callers answer all three
 * alike). `identifier` is an email or a username. The password of an
 * identity linked to another user logs that user in (src/domain/users/linked.ts).
 * Blocked users are the caller's to refuse, after this check. `signal` aborts
 * when the client has gone: a verification not yet begun is then skipped
 * (`HashingCancelled`, platform/passwords/hashing.ts).
 */
export async function verifyUserPassword(
  users: UserStore,
  tenantId: string,
  connectionId: string,
  identifier: string,
  password: string,
  signal?: AbortSignal,
): Promise<UserRow | undefined> {
  const row = await users.findByLoginIdentifier(tenantId, connectionId, identifier.toLowerCase());
  if (!row?.password_hash) {
    await verifyPassword(await decoyHash(), password, signal);
    return undefined;
  }
  const { ok, needsRehash } = await verifyPassword(row.password_hash, password, signal);
  if (!ok) return undefined;
  if (needsRehash) {
    const password_hash = await hashPassword(password);
    await users.update(tenantId, row.user_id, { password_hash });
    return userLoggingIn(users, { ...row, password_hash });
  }
  return userLoggingIn(users, row);
}

let decoy: Promise<string> | undefined;

/** A hash no password matches in practice, with the current parameters: the work an unknown identifier costs. */
function decoyHash(): Promise<string> {
  decoy ??= hashPassword(randomBytes(32).toString('base64url')).catch((err: unknown) => {
    decoy = undefined; // a refusal (the hashing queue full) is not kept: the next call tries again
    throw err;
  });
  return decoy;
}

/**
 * last_login and logins_count, as the Management API shows them. The count is
 * read-modify-write: two logins of one user at the same instant may count once.
 */
export async function recordLogin(users: Pick<UserStore, 'update'>, now: number, user: UserRow): Promise<UserRow> {
  const changes = { last_login: isoAt(now), logins_count: user.logins_count + 1 };
  await users.update(user.tenant_id, user.user_id, changes);
  return { ...user, ...changes };
}
