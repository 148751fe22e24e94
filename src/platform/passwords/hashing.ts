/**
 * Password hashing: argon2id for every new hash; imported bcrypt hashes
 * (`$2a$`, `$2b$`, `$2y$`) are still accepted and reported as needing a rehash,
 * so the caller replaces them with argon2id on the next successful login.
 *
 * Parameters (RFC 9106 §4; OWASP Password Storage Cheat Sheet, first argon2id
 * line: m=19 MiB, t=2, p=1): memoryCost 19456 KiB, timeCost 2, parallelism 1.
 * Raising the cost means changing `ARGON2_PARAMETERS`, after which existing
 * hashes report `needsRehash` and are upgraded at the next login.
 *
 * Where the work runs: on a pool of worker threads of its own (piscina), not
 * on libuv's threadpool and not on the event loop. The pool has
 * `GATEHOUSE_HASH_THREADS` threads (default: one per core but one, at least
 * one), started on first use and stopped when idle, each at the same
 * scheduling priority as the event loop. That is the fair share between the
 * two classes of work: where logins and tokens contend for one core, the
 * kernel gives the hashing thread and the event loop (token signing and the
 * rest of every request) half each, so neither starves the other; each thread
 * holds a few hashes in hand (TASKS_PER_THREAD), so it is never idle waiting
 * for a busy event loop to give it the next. A lowered
 * priority (nice +10, as before) kept tokens at 0.9 of their rate during a
 * password-login flood but left the logins 0.15 of theirs (issue 33). At most
 * `GATEHOUSE_HASH_QUEUE` hashes wait beyond those the threads hold; beyond that the request is
 * refused at once (`HashingBusy`: 429 `too_many_requests` with `Retry-After`,
 * see platform/http/error-handler.ts) instead of queueing without bound.
 */
import os from 'node:os';
import type { Piscina } from 'piscina';
import { lazyModule } from '../lazy.js';
import type { HashTask, VerifyTask } from './hash-worker.js';
import { hashFamily } from './imported-hashes.js';

export const ARGON2_PARAMETERS = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export interface VerifyResult {
  ok: boolean;
  /** True when the hash should be replaced by `hashPassword(password)` after a successful verification. */
  needsRehash: boolean;
}

export interface HashingPoolSettings {
  /** Worker threads hashing at once. */
  threads: number;
  /** Hashes that may wait for a thread; more are refused with `HashingBusy`. */
  queue: number;
}

/** The pool's queue is full: the caller answers 429 with Retry-After instead of waiting. */
export class HashingBusy extends Error {
  constructor(message = 'password hashing queue is full') {
    super(message);
    this.name = 'HashingBusy';
  }
}

/**
 * The verification was not made because whoever asked for it is gone (its
 * `signal` aborted before a thread took it up). A refusal like `HashingBusy`,
 * answered the same way, to a client no longer there.
 */
export class HashingCancelled extends HashingBusy {
  constructor() {
    super('password verification cancelled: the request was abandoned');
    this.name = 'HashingCancelled';
  }
}

export function defaultHashingSettings(): HashingPoolSettings {
  const threads = Math.max(1, os.availableParallelism() - 1);
  return { threads, queue: 64 * threads };
}

let settings: HashingPoolSettings = defaultHashingSettings();
let pool: Piscina | undefined;

/** Sets the pool's size and queue limit (from the configuration, at start-up); a running pool with other settings is replaced. */
export function configureHashing(next: HashingPoolSettings): void {
  if (next.threads === settings.threads && next.queue === settings.queue) return;
  settings = { ...next };
  const old = pool;
  pool = undefined;
  void old?.close();
}

/** Stops the pool's threads (process shutdown); the next hash starts it again. */
export async function closeHashing(): Promise<void> {
  const old = pool;
  pool = undefined;
  await old?.close();
}

/** The compiled worker beside this module; under tsx (tests) the TypeScript source. */
function workerFile(): string {
  const self = new URL(import.meta.url);
  return new URL(self.pathname.endsWith('.ts') ? './hash-worker.ts' : './hash-worker.js', self).href;
}

/** The pool now, for the metrics (src/platform/metrics.ts): hashes waiting, piscina's utilisation, threads running; zeros before the first hash. */
export function hashingPoolStats(): { queueSize: number; utilization: number; threads: number } {
  if (!pool) return { queueSize: 0, utilization: 0, threads: 0 };
  return { queueSize: pool.queueSize, utilization: pool.utilization, threads: pool.threads.length };
}

/** piscina is loaded with the first hash, not at start-up. */
const piscina = lazyModule<typeof import('piscina')>('piscina');

/**
 * Hashes handed to each thread ahead of the one it is working on. With one at a
 * time, a thread that finishes waits for the event loop to take the result
 * and give it the next hash; while tokens keep the event loop busy that turn
 * is slow, and the thread idles with logins queued (measured on one core
 * under a client_credentials flood: the hashing thread used a fifth of the
 * process's CPU and logins ran at a quarter of their rate alone, at equal
 * priority). With a few in hand it goes straight on to the next.
 */
const TASKS_PER_THREAD = 4;

function thePool(): Piscina {
  pool ??= new (piscina().Piscina)({
    filename: workerFile(),
    minThreads: 0,
    maxThreads: settings.threads,
    concurrentTasksPerWorker: TASKS_PER_THREAD,
    maxQueue: settings.queue,
    idleTimeout: 30_000,
  });
  return pool;
}

async function run<T>(task: HashTask | VerifyTask): Promise<T> {
  const p = thePool();
  if (p.queueSize >= settings.queue) throw new HashingBusy();
  return (await p.run(task)) as T;
}

/**
 * A verification that is skipped when `signal` aborts before its thread
 * takes it up: the thread reads a flag shared with this thread
 * (`VerifyTask.cancelled`) just before it starts. Why: when clients give up
 * on slow logins (a timeout, then a new connection and a new login), the
 * logins they abandoned still wait in the queue and the threads' hands, and
 * each new login waits behind them; verified anyway, they spend the hashing
 * threads on answers nobody reads, until every login waits longer than any
 * client and none completes. piscina's own `signal` is not used: aborting a
 * task a thread already holds (TASKS_PER_THREAD) terminates that thread.
 */
async function runVerify(task: VerifyTask, signal: AbortSignal | undefined): Promise<boolean> {
  if (!signal) return run<boolean>(task);
  if (signal.aborted) throw new HashingCancelled();
  const cancelled = new Int32Array(new SharedArrayBuffer(4));
  const cancel = () => Atomics.store(cancelled, 0, 1);
  signal.addEventListener('abort', cancel, { once: true });
  try {
    const ok = await run<boolean | null>({ ...task, cancelled });
    if (ok === null) throw new HashingCancelled();
    return ok;
  } finally {
    signal.removeEventListener('abort', cancel);
  }
}

const ARGON2ID = /^\$argon2id\$/;

/** An argon2id PHC string (`$argon2id$v=19$m=…,t=…,p=…$salt$hash`) with the current parameters and a random salt. */
export function hashPassword(password: string): Promise<string> {
  return run<string>({ op: 'hash', password, ...ARGON2_PARAMETERS });
}

/**
 * Whether an argon2id PHC string was made with other parameters than
 * `ARGON2_PARAMETERS` (or another version than 0x13).
 */
export function argon2NeedsRehash(hash: string): boolean {
  const [, , version, params] = hash.split('$');
  if (version !== 'v=19' || params === undefined) return true;
  const values = new Map(params.split(',').map((pair) => pair.split('=') as [string, string]));
  return (
    Number(values.get('m')) !== ARGON2_PARAMETERS.memoryCost ||
    Number(values.get('t')) !== ARGON2_PARAMETERS.timeCost ||
    Number(values.get('p')) !== ARGON2_PARAMETERS.parallelism
  );
}

/**
 * Checks `password` against a stored hash: argon2id, or one of the imported
 * families of ./imported-hashes.ts (bcrypt, argon2i/d, pbkdf2, salted
 * md5/sha1/sha256/sha512), which always report `needsRehash` on success so the
 * caller replaces them with argon2id. Never throws on a malformed or unknown
 * hash (over MAX_HASH_LENGTH characters included): that is `{ok: false}`, so a
 * damaged row cannot become a 500 or a login. Throws `HashingBusy` when the
 * pool's queue is full, and `HashingCancelled` when `signal` (the request's
 * client gone) aborted before a thread began the verification.
 */
export async function verifyPassword(hash: string, password: string, signal?: AbortSignal): Promise<VerifyResult> {
  const family = hashFamily(hash);
  if (family === undefined) return { ok: false, needsRehash: false };
  const ok = await runVerify({ op: 'verify', family, hash, password }, signal);
  if (family === 'argon2' && ARGON2ID.test(hash)) return { ok, needsRehash: ok && argon2NeedsRehash(hash) };
  return { ok, needsRehash: ok };
}
