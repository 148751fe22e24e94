/**
 * Password hashing: argon2id for every new hash; imported bcrypt hashes
 * (`$2a$`, `$2b$`, `$2y$`) are still accepted and reported as needing a rehash,
 * so the caller replaces them with argon2id on the next successful login.
 *
 * Parameters (RFC 9106 §4; OWASP Password Storage Cheat Sheet, first argon2id
 * line: m=19 MiB, t=2, p=1): memoryCost 19456 KiB, timeCost 2, parallelism 1.
 * Measured on the development machine (Node 20, argon2 0.45): about 35 ms per
 * hash and 31 ms per verification. p=1 keeps one threadpool thread per login;
 * raising the cost means changing `ARGON2_PARAMETERS`, after which existing
 * hashes report `needsRehash` and are upgraded at the next login.
 *
 * The `argon2` package runs hashing in the libuv threadpool, so neither hashing
 * nor verification blocks the event loop. bcryptjs's async API yields between
 * rounds (setImmediate), so verifying an imported hash does not block it either.
 */
import argon2 from 'argon2';
import bcrypt from 'bcryptjs';

export const ARGON2_PARAMETERS = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export interface VerifyResult {
  ok: boolean;
  /** True when the hash should be replaced by `hashPassword(password)` after a successful verification. */
  needsRehash: boolean;
}

const BCRYPT = /^\$2[aby]\$\d{2}\$[./A-Za-z0-9]{53}$/;
const ARGON2ID = /^\$argon2id\$/;

/** An argon2id PHC string (`$argon2id$v=19$m=…,p=…,t=…$salt$hash`) with the current parameters and a random salt. */
export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, { type: argon2.argon2id, ...ARGON2_PARAMETERS });
}

/**
 * Checks `password` against a stored hash. Never throws on a malformed or
 * unknown hash: that is `{ok: false}`, so a damaged row cannot become a 500 or
 * a login. Other hash families (argon2i/d, scrypt, …) are refused.
 */
export async function verifyPassword(hash: string, password: string): Promise<VerifyResult> {
  try {
    if (ARGON2ID.test(hash)) {
      const ok = await argon2.verify(hash, password);
      return { ok, needsRehash: ok && argon2.needsRehash(hash, ARGON2_PARAMETERS) };
    }
    if (BCRYPT.test(hash)) {
      // bcryptjs reads `$2y$` (PHP's name for the same algorithm) only as `$2b$`; the computation is identical.
      const ok = await bcrypt.compare(password, hash.replace(/^\$2y\$/, '$2b$'));
      return { ok, needsRehash: ok };
    }
  } catch {
    // Malformed parameters or encoding inside a recognised prefix.
  }
  return { ok: false, needsRehash: false };
}
