/** Storage of rate limit policies. Implemented by src/storage/kysely/rate-limit-policies.ts. */
import type { KeysetWindow } from '../paging.js';
import type { RateLimitPolicyRow } from './rows.js';

export interface RateLimitPolicyFilter {
  resource?: string;
  consumer?: string;
  consumer_selector?: string;
}

export interface RateLimitPolicyStore {
  /** Every policy of the tenant (what enforcement compiles), by id. */
  list(tenantId: string): Promise<RateLimitPolicyRow[]>;
  /** A keyset page of the tenant's policies matching `filter`, by id. */
  page(tenantId: string, filter: RateLimitPolicyFilter, window: KeysetWindow): Promise<RateLimitPolicyRow[]>;
  get(tenantId: string, id: string): Promise<RateLimitPolicyRow | undefined>;
  /** Fails with a unique violation when the tenant has a policy of the same resource, consumer and selector. */
  insert(row: RateLimitPolicyRow): Promise<void>;
  /** Writes the configuration and `updated_at`; false when there was no such policy. */
  update(tenantId: string, id: string, configuration: RateLimitPolicyRow['configuration'], updatedAt: string): Promise<boolean>;
  /** Deletes the policy; false when there was none. */
  delete(tenantId: string, id: string): Promise<boolean>;
}
