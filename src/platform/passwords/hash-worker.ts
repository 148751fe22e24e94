/**
 * The body of a password-hashing worker thread (run by the pool in
 * ./hashing.ts). Everything here is synchronous on purpose: the worker thread
 * itself does the work, at the pool's lowered priority, instead of handing it
 * to libuv's threadpool, where it would queue beside token signing and other
 * asynchronous crypto of the main thread.
 *
 * argon2id through @node-rs/argon2 (the Rust `argon2` crate: PHC strings
 * compatible with every argon2id implementation); imported bcrypt hashes
 * through bcryptjs.
 */
import { hashSync, verifySync } from '@node-rs/argon2';
import bcrypt from 'bcryptjs';

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
  family: 'argon2id' | 'bcrypt';
  hash: string;
  password: string;
}

export default function run(task: HashTask | VerifyTask): string | boolean {
  if (task.op === 'hash') {
    return hashSync(task.password, {
      algorithm: 2, // Algorithm.Argon2id (a const enum, not importable here)
      memoryCost: task.memoryCost,
      timeCost: task.timeCost,
      parallelism: task.parallelism,
    });
  }
  try {
    if (task.family === 'argon2id') return verifySync(task.hash, task.password);
    // bcryptjs reads `$2y$` (PHP's name for the same algorithm) only as `$2b$`; the computation is identical.
    return bcrypt.compareSync(task.password, task.hash.replace(/^\$2y\$/, '$2b$'));
  } catch {
    // Malformed parameters or encoding inside a recognised prefix: not a match.
    return false;
  }
}
