/**
 * Brute-force protection of database-connection logins (spec, Limits, rate
 * limiting item 3: "repeated login attempts are limited depending on user
 * account and IP address"), on rate-limiter-flexible as src/rate-limit does.
 *
 * Failed password checks are counted per (tenant, connection, lower-cased
 * user identifier, IP) in a one-hour window from the first failure. Once
 * `MAX_FAILURES` have been counted, further attempts from that IP for that
 * identifier are refused without checking the password until the window ends
 * or the block is removed (a success before then resets the count; the
 * Management API's DELETE /user-blocks removes it).
 *
 * With Redis (ctx.redis) counters and the block index are shared by every
 * process; counters fall back to memory should Redis fail (the library's
 * insurance limiter), and so does the index. Without Redis both live in this
 * process only, and a restart forgets them.
 *
 * The index of blocked keys exists because a limiter cannot enumerate its
 * keys: GET /user-blocks?identifier= lists the index's entries for an
 * identifier whose counters are still at the block threshold, and
 * GET /user-blocks/{id} those of the user's email and username in the user's
 * connection.
 */
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

/** Consecutive failures that block the (identifier, IP) pair. */
export const MAX_FAILURES = 10;
/** Window in seconds, counted from the first failure. */
export const FAILURE_WINDOW_SECONDS = 3600;

export interface LoginAttemptKey {
  tenantId: string;
  /** Connection name. */
  connection: string;
  /** The username or email as sent; compared lower-cased. */
  identifier: string;
  ip: string;
}

/** One block, as GET /api/v2/user-blocks lists it (`UserBlockIdentifier`). */
export interface UserBlock {
  identifier: string;
  ip: string;
  connection: string;
}

function limiterKey(key: LoginAttemptKey): string {
  return [key.tenantId, key.connection, key.identifier.toLowerCase(), key.ip].map(encodeURIComponent).join(':');
}

/** Where the (tenant, identifier) → blocks index is kept. */
interface BlockIndex {
  add(tenantId: string, block: UserBlock): Promise<void>;
  list(tenantId: string, identifier: string): Promise<UserBlock[]>;
  remove(tenantId: string, identifier: string, blocks?: readonly UserBlock[]): Promise<void>;
}

const entryField = (block: UserBlock) => `${block.connection}\u0000${block.ip}`;

/** In-process index; entries expire with the window so an unattended process does not grow without bound. */
class MemoryBlockIndex implements BlockIndex {
  readonly #entries = new Map<string, Map<string, { block: UserBlock; expiresAt: number }>>();

  constructor(private readonly now: () => number) {}

  async add(tenantId: string, block: UserBlock): Promise<void> {
    this.#sweep();
    const id = `${tenantId}\u0000${block.identifier}`;
    let entries = this.#entries.get(id);
    if (!entries) this.#entries.set(id, (entries = new Map()));
    entries.set(entryField(block), { block, expiresAt: this.now() + FAILURE_WINDOW_SECONDS * 1000 });
  }

  async list(tenantId: string, identifier: string): Promise<UserBlock[]> {
    const entries = this.#entries.get(`${tenantId}\u0000${identifier}`);
    const now = this.now();
    return entries ? [...entries.values()].filter((e) => e.expiresAt > now).map((e) => e.block) : [];
  }

  async remove(tenantId: string, identifier: string, blocks?: readonly UserBlock[]): Promise<void> {
    const id = `${tenantId}\u0000${identifier}`;
    if (blocks === undefined) {
      this.#entries.delete(id);
      return;
    }
    const entries = this.#entries.get(id);
    for (const block of blocks) entries?.delete(entryField(block));
    if (entries?.size === 0) this.#entries.delete(id);
  }

  #sweep(): void {
    const now = this.now();
    for (const [id, entries] of this.#entries) {
      for (const [field, entry] of entries) if (entry.expiresAt <= now) entries.delete(field);
      if (entries.size === 0) this.#entries.delete(id);
    }
  }
}

/** A Redis hash per (tenant, identifier), field `connection\0ip`, expiring with the window. */
class RedisBlockIndex implements BlockIndex {
  constructor(private readonly redis: Redis) {}

  #key(tenantId: string, identifier: string): string {
    return `gatehouse:bf:blocks:${encodeURIComponent(tenantId)}:${encodeURIComponent(identifier)}`;
  }

  async add(tenantId: string, block: UserBlock): Promise<void> {
    const key = this.#key(tenantId, block.identifier);
    await this.redis.multi().hset(key, entryField(block), JSON.stringify(block)).expire(key, FAILURE_WINDOW_SECONDS).exec();
  }

  async list(tenantId: string, identifier: string): Promise<UserBlock[]> {
    const entries = await this.redis.hgetall(this.#key(tenantId, identifier));
    return Object.values(entries).map((json) => JSON.parse(json) as UserBlock);
  }

  async remove(tenantId: string, identifier: string, blocks?: readonly UserBlock[]): Promise<void> {
    const key = this.#key(tenantId, identifier);
    if (blocks === undefined) await this.redis.del(key);
    else if (blocks.length > 0) await this.redis.hdel(key, ...blocks.map(entryField));
  }
}

/** Redis first, memory when a Redis call fails (as the limiters' insurance does). */
class FallbackBlockIndex implements BlockIndex {
  constructor(
    private readonly primary: BlockIndex,
    private readonly fallback: BlockIndex,
  ) {}

  async add(tenantId: string, block: UserBlock): Promise<void> {
    await this.fallback.add(tenantId, block);
    await this.primary.add(tenantId, block).catch(() => undefined);
  }

  async list(tenantId: string, identifier: string): Promise<UserBlock[]> {
    const local = await this.fallback.list(tenantId, identifier);
    const shared = await this.primary.list(tenantId, identifier).catch(() => []);
    const all = new Map([...shared, ...local].map((b) => [entryField(b), b]));
    return [...all.values()];
  }

  async remove(tenantId: string, identifier: string, blocks?: readonly UserBlock[]): Promise<void> {
    await this.fallback.remove(tenantId, identifier, blocks);
    await this.primary.remove(tenantId, identifier, blocks).catch(() => undefined);
  }
}

export interface BruteForceObserver {
  /** A password check of a login to the connection (by name) succeeded or failed. */
  login?(connection: string, success: boolean): void;
  /** A pair used up its failures and is blocked from now on. */
  blocked?(): void;
}

export class BruteForceProtection {
  readonly #limiter: RateLimiterAbstract;
  readonly #index: BlockIndex;

  /** Told of each password check's outcome and of each new block (the metrics, src/platform/metrics.ts). */
  readonly #observer: BruteForceObserver;

  constructor(redis: Redis | undefined, now: () => number, observer: BruteForceObserver = {}) {
    this.#observer = observer;
    const options = { points: MAX_FAILURES, duration: FAILURE_WINDOW_SECONDS, keyPrefix: 'gatehouse:bf' };
    this.#limiter = redis
      ? new RateLimiterRedis({ ...options, storeClient: redis, insuranceLimiter: new RateLimiterMemory(options) })
      : new RateLimiterMemory(options);
    const memory = new MemoryBlockIndex(now);
    this.#index = redis ? new FallbackBlockIndex(new RedisBlockIndex(redis), memory) : memory;
  }

  /** True when the pair has used up its failures: the attempt is refused without checking the password. */
  async isBlocked(key: LoginAttemptKey): Promise<boolean> {
    const res = await this.#limiter.get(limiterKey(key));
    return res !== null && res.consumedPoints >= MAX_FAILURES;
  }

  /** Counts a failed password check; the one that reaches the limit enters the block index. */
  async recordFailure(key: LoginAttemptKey): Promise<void> {
    let consumed: number;
    try {
      consumed = (await this.#limiter.consume(limiterKey(key), 1)).consumedPoints;
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      consumed = rejection.consumedPoints;
    }
    this.#observer.login?.(key.connection, false);
    if (consumed === MAX_FAILURES) this.#observer.blocked?.();
    if (consumed >= MAX_FAILURES) {
      await this.#index.add(key.tenantId, { identifier: key.identifier.toLowerCase(), ip: key.ip, connection: key.connection });
    }
  }

  /** A successful login resets the pair's count. */
  async recordSuccess(key: LoginAttemptKey): Promise<void> {
    this.#observer.login?.(key.connection, true);
    await this.#limiter.delete(limiterKey(key));
  }

  /**
   * The pairs of the identifier that are blocked now, in every connection or
   * only in `connection` (a name); stale index entries are dropped on the way.
   */
  async blocks(tenantId: string, identifier: string, connection?: string): Promise<UserBlock[]> {
    const id = identifier.toLowerCase();
    const indexed = await this.#index.list(tenantId, id);
    const blocked: UserBlock[] = [];
    const stale: UserBlock[] = [];
    for (const block of indexed) {
      const still = await this.isBlocked({ tenantId, ...block });
      if (!still) stale.push(block);
      else if (connection === undefined || block.connection === connection) blocked.push(block);
    }
    if (stale.length > 0) await this.#index.remove(tenantId, id, stale);
    return blocked;
  }

  /** Removes the identifier's blocks from every IP: in every connection, or only in `connection` (a name). */
  async unblock(tenantId: string, identifier: string, connection?: string): Promise<void> {
    const id = identifier.toLowerCase();
    const indexed = await this.#index.list(tenantId, id);
    const targets = connection === undefined ? indexed : indexed.filter((block) => block.connection === connection);
    for (const block of targets) await this.recordSuccess({ tenantId, ...block });
    await this.#index.remove(tenantId, id, connection === undefined ? undefined : targets);
  }
}
