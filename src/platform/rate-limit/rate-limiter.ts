/**
 * Rate limiting per tenant and endpoint class, on rate-limiter-flexible.
 *
 * A bucket of `burst` requests refills every `round(burst / perSecond)` seconds
 * (at least one): the library's fixed-window model, the same in memory and in
 * Redis (whose expiry works in whole seconds). The burst is exact; the
 * sustained rate is exact when burst/perSecond is whole and within rounding
 * otherwise (the Management API default 50/16 allows 50 per 3 s).
 *
 * With REDIS_URL the buckets are shared by every process; should Redis be
 * unreachable, an in-process limiter takes over (the library's insurance
 * limiter) rather than failing requests.
 */
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Redis } from 'ioredis';
import type { Clock } from '../clock.js';
import type { RateLimitSetting } from '../config.js';

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix time in seconds when the bucket refills (the X-RateLimit-Reset value). */
  resetAt: number;
  /** Seconds until then, for Retry-After. */
  retryAfter: number;
}

export class RateLimiter {
  readonly #limiters = new Map<string, RateLimiterAbstract>();

  constructor(
    private readonly redis: Redis | undefined,
    private readonly clock: Clock,
    /** Told of each refusal, by bucket class (the metrics, src/platform/metrics.ts). */
    private readonly onRefused: (bucketClass: string) => void = () => undefined,
  ) {}

  /** Takes one request from the bucket `key` sized by `setting`. */
  async consume(bucketClass: string, key: string, setting: RateLimitSetting): Promise<RateLimitDecision> {
    const limiter = this.#limiter(bucketClass, setting);
    try {
      const res = await limiter.consume(key, 1);
      return decision(true, setting.burst, res, this.clock.now());
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) {
        this.onRefused(bucketClass);
        return decision(false, setting.burst, rejection, this.clock.now());
      }
      throw rejection;
    }
  }

  #limiter(bucketClass: string, setting: RateLimitSetting): RateLimiterAbstract {
    const duration = Math.max(1, Math.round(setting.burst / setting.perSecond));
    const id = `${bucketClass}:${setting.burst}:${duration}`;
    let limiter = this.#limiters.get(id);
    if (!limiter) {
      const options = { points: setting.burst, duration, keyPrefix: `gatehouse:rl:${id}` };
      limiter = this.redis
        ? new RateLimiterRedis({ ...options, storeClient: this.redis, insuranceLimiter: new RateLimiterMemory(options) })
        : new RateLimiterMemory(options);
      this.#limiters.set(id, limiter);
    }
    return limiter;
  }
}

function decision(allowed: boolean, limit: number, res: RateLimiterRes, now: number): RateLimitDecision {
  const ms = Math.max(0, res.msBeforeNext);
  return {
    allowed,
    limit,
    remaining: Math.max(0, res.remainingPoints),
    resetAt: Math.ceil((now + ms) / 1000),
    retryAfter: Math.max(1, Math.ceil(ms / 1000)),
  };
}
