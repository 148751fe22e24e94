/**
 * Password login against a database connection's users: the step the
 * Authentication API's password grants will call. An imported bcrypt hash (or
 * an argon2id hash with outdated parameters) is replaced by a fresh argon2id
 * hash after the first successful verification, while the plaintext is at hand.
 */
import { hashPassword, verifyPassword } from '../passwords/hashing.js';
import type { UserRow } from './model.js';
import type { UserStore } from './store.js';

/**
 * The user when `password` matches; undefined for an unknown email, a user
 * without a password, or a wrong password (callers answer all three alike).
 * Blocked users are the caller's to refuse, after this check.
 */
export async function verifyUserPassword(
  users: UserStore,
  tenantId: string,
  connectionId: string,
  email: string,
  password: string,
): Promise<UserRow | undefined> {
  const row = await users.findByEmail(tenantId, connectionId, email.toLowerCase());
  if (!row?.password_hash) return undefined;
  const { ok, needsRehash } = await verifyPassword(row.password_hash, password);
  if (!ok) return undefined;
  if (needsRehash) {
    const password_hash = await hashPassword(password);
    await users.update(tenantId, row.user_id, { password_hash });
    return { ...row, password_hash };
  }
  return row;
}
