import type { ManagementRoute } from '../route.js';
import { createRateLimitPolicy } from './create.js';
import { deleteRateLimitPolicy } from './delete.js';
import { getRateLimitPolicy } from './get.js';
import { listRateLimitPolicies } from './list.js';
import { RateLimitPolicyService, type RateLimitPolicyServiceContext } from './service.js';
import { updateRateLimitPolicy } from './update.js';

/** /api/v2/rate-limit-policies */
export function rateLimitPolicyRoutes(ctx: RateLimitPolicyServiceContext): ManagementRoute[] {
  const policies = new RateLimitPolicyService(ctx);
  return [listRateLimitPolicies, createRateLimitPolicy, getRateLimitPolicy, updateRateLimitPolicy, deleteRateLimitPolicy].map((route) => route(ctx, policies));
}
