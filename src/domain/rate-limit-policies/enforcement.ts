/**
 * Enforcement of a tenant's rate limit policies (the service's
 * /rate-limit-policies): on the Authentication API (`oauth_authentication_api`),
 * per consumer `client`, each client counted in a bucket of its own holding
 * `limit` requests per second, drawn from the process's rate limiter
 * (src/platform/rate-limit/rate-limiter.ts: in Redis when REDIS_URL is set,
 * so the count holds across processes).
 *
 * The policy of a client is the most specific one: `client_id:<its id>`, else
 * `third_party_clients` for a client that is not first party, else `default`.
 * An `allow` policy exempts the client (from the less specific ones too); the
 * others decide what happens past the limit (`block`, `log`, `redirect`: the
 * hook, src/authentication/rate-limit-policies.ts, carries it out).
 *
 * The policies are cached per tenant for POLICY_CACHE_TTL_MS; a write clears
 * the tenant's entry in every process through the invalidation bus
 * (src/app/configuration-writes.ts lists the writes).
 */
import type { InvalidationBus } from '../../platform/cache/invalidation.js';
import { TenantCache } from '../../platform/cache/tenant-cache.js';
import type { RateLimitDecision, RateLimiter } from '../../platform/rate-limit/rate-limiter.js';
import type { IssuanceLookups } from '../issuance/lookups.js';
import type { RateLimitPolicyRow } from './rows.js';
import type { RateLimitPolicyStore } from './store.js';

export const POLICY_CACHE_TTL_MS = 10_000;
export const AUTHENTICATION_API_RESOURCE = 'oauth_authentication_api';
export const CLIENT_CONSUMER = 'client';
/** The rate limiter's bucket class of policies (its metrics label). */
export const POLICY_BUCKET_CLASS = 'policy';

/** A policy that limits (not `allow`) and what its bucket said of this request. */
export interface PolicyOutcome {
  policy: RateLimitPolicyRow;
  action: 'block' | 'log' | 'redirect';
  redirectUri: string | undefined;
  decision: RateLimitDecision;
}

/** The policy of a client among the tenant's, by selector (see the module comment); undefined when none, or `allow`. */
export function policyFor(bySelector: ReadonlyMap<string, RateLimitPolicyRow>, clientId: string, firstParty: boolean): RateLimitPolicyRow | undefined {
  return bySelector.get(`client_id:${clientId}`) ?? (firstParty ? undefined : bySelector.get('third_party_clients')) ?? bySelector.get('default');
}

/** What enforcement touches. */
export interface RateLimitPolicyContext {
  readonly stores: { readonly rateLimitPolicies: RateLimitPolicyStore };
  readonly now: () => number;
  readonly invalidation: InvalidationBus;
  readonly lookups: Pick<IssuanceLookups, 'client'>;
  readonly rateLimiter: RateLimiter;
}

export class RateLimitPolicies {
  readonly #cache: TenantCache<ReadonlyMap<string, RateLimitPolicyRow>>;

  constructor(private readonly ctx: RateLimitPolicyContext) {
    this.#cache = new TenantCache(POLICY_CACHE_TTL_MS, ctx.now, 1);
  }

  /**
   * Takes one request of `clientId` from its policy's bucket; undefined when
   * no policy limits the client (none applies, `allow`, or no such client:
   * the endpoint refuses an unknown client anyway, and unknown ids must not
   * make buckets).
   */
  async consume(tenantId: string, clientId: string): Promise<PolicyOutcome | undefined> {
    const bySelector = await this.#cache.get(tenantId, 'policies', async () => {
      const rows = await this.ctx.stores.rateLimitPolicies.list(tenantId);
      return new Map(rows.filter((row) => row.resource === AUTHENTICATION_API_RESOURCE && row.consumer === CLIENT_CONSUMER).map((row) => [row.consumer_selector, row]));
    });
    if (bySelector.size === 0) return undefined;
    const client = await this.ctx.lookups.client(tenantId, clientId);
    if (!client) return undefined;
    const policy = policyFor(bySelector, clientId, client.row.is_first_party === 1);
    if (!policy || policy.configuration.action === 'allow') return undefined;
    const { configuration } = policy;
    const redirectUri = configuration.action === 'redirect' ? configuration.redirect_uri : undefined;
    const decision: RateLimitDecision =
      configuration.limit === 0
        ? { allowed: false, limit: 0, remaining: 0, resetAt: Math.ceil(this.ctx.now() / 1000) + 1, retryAfter: 1 }
        : await this.ctx.rateLimiter.consume(POLICY_BUCKET_CLASS, `${tenantId}:${policy.id}:${clientId}`, { burst: configuration.limit, perSecond: configuration.limit });
    return { policy, action: configuration.action, redirectUri, decision };
  }

  invalidate(tenantId: string): void {
    this.#cache.invalidateTenant(tenantId);
  }
}

const shared = new WeakMap<RateLimitPolicyContext['stores'], RateLimitPolicies>();

/** One cache per process, cleared by the tenant's invalidations. */
export function rateLimitPoliciesOf(ctx: RateLimitPolicyContext): RateLimitPolicies {
  let policies = shared.get(ctx.stores);
  if (!policies) {
    const created = new RateLimitPolicies(ctx);
    ctx.invalidation.onInvalidate((tenantId) => created.invalidate(tenantId));
    shared.set(ctx.stores, (policies = created));
  }
  return policies;
}
