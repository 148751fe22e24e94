/**
 * The body of a password-hashing worker thread (run by the pool in
 * ./hashing.ts). Everything here is synchronous on purpose: the worker thread
 * itself does the work, as one schedulable thread beside the event loop, instead of handing it
 * to libuv's threadpool, where it would queue beside token signing and other
 * asynchronous crypto of the main thread.
 *
 * argon2 (id, and imported i and d) through @node-rs/argon2 (the Rust
 * `argon2` crate: PHC strings compatible with every argon2 implementation);
 * imported bcrypt hashes through bcryptjs; imported pbkdf2 and salted
 * md5/sha1/sha256/sha512 digests (./imported-hashes.ts) through node:crypto,
 * compared in constant time.
 */
import { createHash, pbkdf2Sync, timingSafeEqual } from 'node:crypto';
import { hashSync, verifySync } from '@node-rs/argon2';
import bcrypt from 'bcryptjs';
import { parseDigest, parsePbkdf2, type HashFamily } from './imported-hashes.js';

export interface HashTask {
  op: 'hash';
  password: string;
  memoryCost: number;
  timeCost: number;
  parallelism: number;
}

export interface VerifyTask {
  op: 'verify';
  /** Which family `hash` was recognised as by the caller. */
  family: HashFamily;
  hash: string;
  password: string;
  /** Set to 1 by the caller when the verification is no longer wanted; read just before it starts (./hashing.ts `runVerify`). */
  cancelled?: Int32Array;
}

/** The answer of a verification cancelled before it started. */
export const CANCELLED = null;

export default function run(task: HashTask | VerifyTask): string | boolean | typeof CANCELLED {
  if (task.op === 'hash') {
    return hashSync(task.password, {
      algorithm: 2, // Algorithm.Argon2id (a const enum, not importable here)
      memoryCost: task.memoryCost,
      timeCost: task.timeCost,
      parallelism: task.parallelism,
    });
  }
  if (task.cancelled !== undefined && Atomics.load(task.cancelled, 0) === 1) return CANCELLED;
  try {
    if (task.family === 'argon2') return verifySync(task.hash, task.password);
    if (task.family === 'pbkdf2') return verifyPbkdf2(task.hash, task.password);
    if (task.family === 'digest') return verifyDigest(task.hash, task.password);
    // bcryptjs reads `$2y$` (PHP's name for the same algorithm) only as `$2b$`; the computation is identical.
    return bcrypt.compareSync(task.password, task.hash.replace(/^\$2y\$/, '$2b$'));
  } catch {
    // Malformed parameters or encoding inside a recognised prefix: not a match.
    return false;
  }
}

function verifyPbkdf2(stored: string, password: string): boolean {
  const parsed = parsePbkdf2(stored);
  if (!parsed) return false;
  const derived = pbkdf2Sync(Buffer.from(password, 'utf8'), parsed.salt, parsed.iterations, parsed.length, parsed.digest);
  return timingSafeEqual(derived, parsed.hash);
}

function verifyDigest(stored: string, password: string): boolean {
  const parsed = parseDigest(stored);
  if (!parsed) return false;
  const bytes = Buffer.from(password, parsed.passwordEncoding);
  const input = parsed.position === 'prefix' ? Buffer.concat([parsed.salt, bytes]) : Buffer.concat([bytes, parsed.salt]);
  return timingSafeEqual(createHash(parsed.algorithm).update(input).digest(), parsed.hash);
}
