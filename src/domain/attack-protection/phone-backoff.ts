/**
 * Phone provider protection (`/api/v2/attack-protection/phone-provider-protection`):
 * with `type: exponential`, the text messages Gatehouse sends to one phone
 * number (MFA and passwordless codes) are spaced out exponentially, the
 * service's defence against SMS pumping (toll fraud through repeated sends):
 * after the n-th message to a number within an hour, the next waits
 * 15 s × 2^(n-1), at most an hour (15 s, 30 s, 1 min, 2 min…). With `none`
 * (a fresh tenant's) nothing is counted.
 *
 * Counted per (tenant, number) on rate-limiter-flexible, shared through
 * Redis when configured (memory otherwise), as brute-force counters are.
 */
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Tenant } from '../tenants/tenant.js';
import { attackProtection } from './settings.js';

export const BACKOFF_BASE_SECONDS = 15;
export const BACKOFF_MAX_SECONDS = 3600;
const WINDOW_SECONDS = 3600;

export class PhoneBackoff {
  readonly #sent: RateLimiterAbstract;
  readonly #wait: RateLimiterAbstract;

  constructor(redis: Redis | undefined) {
    const sent = { points: 1_000_000, duration: WINDOW_SECONDS, keyPrefix: 'gatehouse:sms-sent' };
    const wait = { points: 1, duration: BACKOFF_MAX_SECONDS, keyPrefix: 'gatehouse:sms-wait' };
    this.#sent = redis ? new RateLimiterRedis({ ...sent, storeClient: redis, insuranceLimiter: new RateLimiterMemory(sent) }) : new RateLimiterMemory(sent);
    this.#wait = redis ? new RateLimiterRedis({ ...wait, storeClient: redis, insuranceLimiter: new RateLimiterMemory(wait) }) : new RateLimiterMemory(wait);
  }

  /**
   * Whether a message may go to `to` now under the tenant's settings; when
   * it may, it is counted (the caller sends it). Otherwise the seconds to wait.
   */
  async admit(tenant: Tenant, to: string): Promise<{ admitted: true } | { admitted: false; retryAfterSeconds: number }> {
    if (attackProtection(tenant.settings, 'phone_provider_protection').type !== 'exponential') return { admitted: true };
    const key = `${encodeURIComponent(tenant.id)}:${to}`;
    const waiting = await this.#wait.get(key);
    if (waiting !== null && waiting.consumedPoints > 1) return { admitted: false, retryAfterSeconds: Math.max(1, Math.ceil(waiting.msBeforeNext / 1000)) };
    let sent: number;
    try {
      sent = (await this.#sent.consume(key)).consumedPoints;
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      sent = rejection.consumedPoints;
    }
    await this.#wait.block(key, Math.min(BACKOFF_BASE_SECONDS * 2 ** (sent - 1), BACKOFF_MAX_SECONDS));
    return { admitted: true };
  }
}
