/**
 * Limits on requests that cost money or mailbox trust (each sends a code by
 * email or text message): /passwordless/start and SMS enrolment, per client
 * IP and per recipient (issue: "rate limited per IP and per recipient").
 * Drawn from the tenant's rate limiter (shared through Redis when
 * configured); past a limit, 429 `too_many_requests` with Retry-After.
 */
import type { Tenant } from '../domain/tenants/tenant.js';
import type { RateLimitSetting } from '../platform/config.js';
import { oauthErrors } from '../platform/http/errors.js';
import type { RateLimiter } from '../platform/rate-limit/rate-limiter.js';

/** Per client IP: the service's /passwordless/start figure, 50 an hour (wire notes §1.5). */
export const SENDS_PER_IP: RateLimitSetting = { burst: 50, perSecond: 50 / 3600 };
/** Per recipient (address or phone number): 10 an hour. */
export const SENDS_PER_RECIPIENT: RateLimitSetting = { burst: 10, perSecond: 10 / 3600 };

/** What the abuse limits touch. */
export interface AbuseLimitContext {
  readonly rateLimiter: RateLimiter;
}

/** Takes one send of `purpose` for the IP and the recipient (lower-cased), or refuses with 429. */
export async function takeSend(ctx: AbuseLimitContext, tenant: Tenant, purpose: string, ip: string, recipient: string): Promise<void> {
  for (const [scope, key, setting] of [
    ['ip', ip, SENDS_PER_IP],
    ['recipient', recipient.toLowerCase(), SENDS_PER_RECIPIENT],
  ] as const) {
    const decision = await ctx.rateLimiter.consume(`${purpose}_${scope}`, [tenant.id, key].map(encodeURIComponent).join(':'), setting);
    if (!decision.allowed) throw oauthErrors.tooManyRequests().withHeader('Retry-After', String(decision.retryAfter));
  }
}
