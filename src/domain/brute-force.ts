/**
 * Brute-force protection of database-connection logins (spec, Limits, rate
 * limiting item 3: "repeated login attempts are limited depending on user
 * account and IP address"), on rate-limiter-flexible as src/rate-limit does,
 * under the tenant's settings (`/api/v2/attack-protection/brute-force-protection`,
 * ./attack-protection/settings.ts), which every attempt carries:
 *
 * - `enabled` false: nothing is counted or refused;
 * - an address in `allowlist` (IPs and CIDR blocks) is neither counted nor refused;
 * - `mode`: failures counted per (tenant, connection, lower-cased identifier,
 *   IP) (`count_per_identifier_and_ip`, the default) or per identifier from
 *   any address (`count_per_identifier`);
 * - `max_attempts` (1 to 100, default 10) failures in a one-hour window from
 *   the first block further attempts without checking the password, when
 *   `shields` has `block`, until the window ends or the block is removed (a
 *   success before then resets the count; the Management API's DELETE
 *   /user-blocks removes it). Reaching the limit is reported to the caller,
 *   which tells the user when `shields` has `user_notification`.
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
 * connection. A second index by IP address answers GET/DELETE
 * /anomaly/blocks/ips/{ip}: the blocks logins from that address are under.
 */
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { allowlisted, BRUTE_FORCE_DEFAULTS, type BruteForceSettings } from './attack-protection/settings.js';

/** Failures that block by default (`max_attempts`). */
export const MAX_FAILURES = BRUTE_FORCE_DEFAULTS.max_attempts;

/** The most `max_attempts` may be (the document's maximum); the limiter counts up to it. */
const MAX_COUNTED = 100;
/** Window in seconds, counted from the first failure. */
export const FAILURE_WINDOW_SECONDS = 3600;
/** The IP part of the counter's key in `count_per_identifier` mode: every address counts together. */
const ANY_IP = '*';

export interface LoginAttemptKey {
  tenantId: string;
  /** Connection name. */
  connection: string;
  /** The username or email as sent; compared lower-cased. */
  identifier: string;
  ip: string;
  /** The tenant's brute-force settings in effect. */
  policy: BruteForceSettings;
}

/** One block, as GET /api/v2/user-blocks lists it (`UserBlockIdentifier`). */
export interface UserBlock {
  identifier: string;
  ip: string;
  connection: string;
}

/** A block as the index keeps it: with the IP part of its counter's key (the address, or ANY_IP). */
interface IndexedBlock extends UserBlock {
  counted_ip?: string;
}

interface CounterKey {
  tenantId: string;
  connection: string;
  identifier: string;
  countedIp: string;
}

function limiterKey(key: CounterKey): string {
  return [key.tenantId, key.connection, key.identifier.toLowerCase(), key.countedIp].map(encodeURIComponent).join(':');
}

function counterOf(key: LoginAttemptKey): CounterKey {
  return { tenantId: key.tenantId, connection: key.connection, identifier: key.identifier, countedIp: key.policy.mode === 'count_per_identifier' ? ANY_IP : key.ip };
}

function counterOfBlock(tenantId: string, block: IndexedBlock): CounterKey {
  return { tenantId, connection: block.connection, identifier: block.identifier, countedIp: block.counted_ip ?? block.ip };
}

/** Whether the attempt is counted at all: protection on, and the address not allowlisted. */
function counts(key: LoginAttemptKey): boolean {
  return key.policy.enabled && !allowlisted(key.policy.allowlist, key.ip);
}

/** Where a (tenant, key) → blocks index is kept; the key is the block's identifier, or its IP address. */
interface BlockIndex {
  add(tenantId: string, block: IndexedBlock): Promise<void>;
  list(tenantId: string, key: string): Promise<IndexedBlock[]>;
  remove(tenantId: string, key: string, blocks?: readonly IndexedBlock[]): Promise<void>;
}

/** What an index is keyed by: `identifier` (user blocks) or `ip` (anomaly blocks). */
type IndexKey = 'identifier' | 'ip';

/** The entry of a block in its key's set: what else tells it apart there. */
const entryFieldOf = (by: IndexKey) => (block: IndexedBlock) => (by === 'identifier' ? `${block.connection}\u0000${block.ip}` : `${block.connection}\u0000${block.identifier}`);

/** In-process index; entries expire with the window so an unattended process does not grow without bound. */
class MemoryBlockIndex implements BlockIndex {
  readonly #entries = new Map<string, Map<string, { block: IndexedBlock; expiresAt: number }>>();

  readonly #field: (block: IndexedBlock) => string;

  constructor(
    private readonly now: () => number,
    private readonly by: IndexKey = 'identifier',
  ) {
    this.#field = entryFieldOf(by);
  }

  async add(tenantId: string, block: IndexedBlock): Promise<void> {
    this.#sweep();
    const id = `${tenantId}\u0000${block[this.by]}`;
    let entries = this.#entries.get(id);
    if (!entries) this.#entries.set(id, (entries = new Map()));
    entries.set(this.#field(block), { block, expiresAt: this.now() + FAILURE_WINDOW_SECONDS * 1000 });
  }

  async list(tenantId: string, identifier: string): Promise<IndexedBlock[]> {
    const entries = this.#entries.get(`${tenantId}\u0000${identifier}`);
    const now = this.now();
    return entries ? [...entries.values()].filter((e) => e.expiresAt > now).map((e) => e.block) : [];
  }

  async remove(tenantId: string, identifier: string, blocks?: readonly IndexedBlock[]): Promise<void> {
    const id = `${tenantId}\u0000${identifier}`;
    if (blocks === undefined) {
      this.#entries.delete(id);
      return;
    }
    const entries = this.#entries.get(id);
    for (const block of blocks) entries?.delete(this.#field(block));
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

/** A Redis hash per (tenant, identifier), field `connection\0ip` (by IP: per (tenant, ip), field `connection\0identifier`), expiring with the window. */
class RedisBlockIndex implements BlockIndex {
  readonly #field: (block: IndexedBlock) => string;

  constructor(
    private readonly redis: Redis,
    private readonly by: IndexKey = 'identifier',
  ) {
    this.#field = entryFieldOf(by);
  }

  #key(tenantId: string, key: string): string {
    return `gatehouse:bf:${this.by === 'identifier' ? 'blocks' : 'ip-blocks'}:${encodeURIComponent(tenantId)}:${encodeURIComponent(key)}`;
  }

  async add(tenantId: string, block: IndexedBlock): Promise<void> {
    const key = this.#key(tenantId, block[this.by]);
    await this.redis.multi().hset(key, this.#field(block), JSON.stringify(block)).expire(key, FAILURE_WINDOW_SECONDS).exec();
  }

  async list(tenantId: string, identifier: string): Promise<IndexedBlock[]> {
    const entries = await this.redis.hgetall(this.#key(tenantId, identifier));
    return Object.values(entries).map((json) => JSON.parse(json) as IndexedBlock);
  }

  async remove(tenantId: string, identifier: string, blocks?: readonly IndexedBlock[]): Promise<void> {
    const key = this.#key(tenantId, identifier);
    if (blocks === undefined) await this.redis.del(key);
    else if (blocks.length > 0) await this.redis.hdel(key, ...blocks.map(this.#field));
  }
}

/** Redis first, memory when a Redis call fails (as the limiters' insurance does). */
class FallbackBlockIndex implements BlockIndex {
  readonly #field: (block: IndexedBlock) => string;

  constructor(
    private readonly primary: BlockIndex,
    private readonly fallback: BlockIndex,
    by: IndexKey = 'identifier',
  ) {
    this.#field = entryFieldOf(by);
  }

  async add(tenantId: string, block: IndexedBlock): Promise<void> {
    await this.fallback.add(tenantId, block);
    await this.primary.add(tenantId, block).catch(() => undefined);
  }

  async list(tenantId: string, identifier: string): Promise<IndexedBlock[]> {
    const local = await this.fallback.list(tenantId, identifier);
    const shared = await this.primary.list(tenantId, identifier).catch(() => []);
    const all = new Map([...shared, ...local].map((b) => [this.#field(b), b]));
    return [...all.values()];
  }

  async remove(tenantId: string, identifier: string, blocks?: readonly IndexedBlock[]): Promise<void> {
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
  readonly #byIp: BlockIndex;

  /** Told of each password check's outcome and of each new block (the metrics, src/platform/metrics.ts). */
  readonly #observer: BruteForceObserver;

  constructor(redis: Redis | undefined, now: () => number, observer: BruteForceObserver = {}) {
    this.#observer = observer;
    const options = { points: MAX_COUNTED, duration: FAILURE_WINDOW_SECONDS, keyPrefix: 'gatehouse:bf' };
    this.#limiter = redis
      ? new RateLimiterRedis({ ...options, storeClient: redis, insuranceLimiter: new RateLimiterMemory(options) })
      : new RateLimiterMemory(options);
    const memory = new MemoryBlockIndex(now);
    this.#index = redis ? new FallbackBlockIndex(new RedisBlockIndex(redis), memory) : memory;
    const memoryByIp = new MemoryBlockIndex(now, 'ip');
    this.#byIp = redis ? new FallbackBlockIndex(new RedisBlockIndex(redis, 'ip'), memoryByIp, 'ip') : memoryByIp;
  }

  async #reached(counter: CounterKey, policy: BruteForceSettings): Promise<boolean> {
    const res = await this.#limiter.get(limiterKey(counter));
    return res !== null && res.consumedPoints >= policy.max_attempts;
  }

  /** True when the attempt's counter has used up its failures and the policy blocks: it is refused without checking the password. */
  async isBlocked(key: LoginAttemptKey): Promise<boolean> {
    if (!counts(key) || !key.policy.shields.includes('block')) return false;
    return this.#reached(counterOf(key), key.policy);
  }

  /** The failed password checks counted against the attempt's counter in the current window (0 when protection does not count it): what bot detection's `when_risky` reads (./attack-protection/challenge.ts). */
  async failures(key: LoginAttemptKey): Promise<number> {
    if (!counts(key)) return 0;
    return (await this.#limiter.get(limiterKey(counterOf(key))))?.consumedPoints ?? 0;
  }

  /**
   * Counts a failed password check; the one that reaches the limit enters
   * the block index and answers true (the caller tells the user when the
   * policy asks for it). Not counted when protection is off or the address
   * is allowlisted.
   */
  async recordFailure(key: LoginAttemptKey): Promise<boolean> {
    this.#observer.login?.(key.connection, false);
    if (!counts(key)) return false;
    const counter = counterOf(key);
    let consumed: number;
    try {
      consumed = (await this.#limiter.consume(limiterKey(counter), 1)).consumedPoints;
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      consumed = rejection.consumedPoints;
    }
    if (consumed < key.policy.max_attempts) return false;
    if (consumed === key.policy.max_attempts) this.#observer.blocked?.();
    const block = { identifier: key.identifier.toLowerCase(), ip: key.ip, connection: key.connection, counted_ip: counter.countedIp };
    await this.#index.add(key.tenantId, block);
    await this.#byIp.add(key.tenantId, block);
    return consumed === key.policy.max_attempts;
  }

  /** A successful login resets the attempt's count. */
  async recordSuccess(key: LoginAttemptKey): Promise<void> {
    this.#observer.login?.(key.connection, true);
    if (!counts(key)) return;
    await this.#limiter.delete(limiterKey(counterOf(key)));
  }

  /**
   * The pairs of the identifier that are blocked now under `policy`, in every
   * connection or only in `connection` (a name); stale index entries are
   * dropped on the way.
   */
  async blocks(tenantId: string, identifier: string, policy: BruteForceSettings, connection?: string): Promise<UserBlock[]> {
    const id = identifier.toLowerCase();
    const indexed = await this.#index.list(tenantId, id);
    const blocked: UserBlock[] = [];
    const stale: IndexedBlock[] = [];
    for (const block of indexed) {
      const still = await this.#reached(counterOfBlock(tenantId, block), policy);
      if (!still) stale.push(block);
      else if (connection === undefined || block.connection === connection) blocked.push({ identifier: block.identifier, ip: block.ip, connection: block.connection });
    }
    if (stale.length > 0) await this.#index.remove(tenantId, id, stale);
    return policy.enabled && policy.shields.includes('block') ? blocked : [];
  }

  /** Removes the identifier's blocks from every IP: in every connection, or only in `connection` (a name). */
  async unblock(tenantId: string, identifier: string, connection?: string): Promise<void> {
    const id = identifier.toLowerCase();
    const indexed = await this.#index.list(tenantId, id);
    const targets = connection === undefined ? indexed : indexed.filter((block) => block.connection === connection);
    for (const block of targets) await this.#limiter.delete(limiterKey(counterOfBlock(tenantId, block)));
    await this.#index.remove(tenantId, id, connection === undefined ? undefined : targets);
  }

  /**
   * The blocks in force now under `policy` that logins from `ip` are under
   * (the address as the counters record it); stale entries are dropped.
   */
  async blocksFromIp(tenantId: string, ip: string, policy: BruteForceSettings): Promise<UserBlock[]> {
    const indexed = await this.#byIp.list(tenantId, ip);
    const blocked: UserBlock[] = [];
    const stale: IndexedBlock[] = [];
    for (const block of indexed) {
      if (await this.#reached(counterOfBlock(tenantId, block), policy)) blocked.push({ identifier: block.identifier, ip: block.ip, connection: block.connection });
      else stale.push(block);
    }
    if (stale.length > 0) await this.#byIp.remove(tenantId, ip, stale);
    return policy.enabled && policy.shields.includes('block') ? blocked : [];
  }

  /** Lifts every block that logins from `ip` are under, for every identifier. */
  async unblockIp(tenantId: string, ip: string): Promise<void> {
    const indexed = await this.#byIp.list(tenantId, ip);
    for (const block of indexed) {
      await this.#limiter.delete(limiterKey(counterOfBlock(tenantId, block)));
      await this.#index.remove(tenantId, block.identifier, [block]);
    }
    await this.#byIp.remove(tenantId, ip);
  }
}
