import { managementRoute, type ManagementRouteFactory } from '../route.js';
import { ListQuery, RateLimitPolicyList } from './schema.js';
import type { RateLimitPolicyService } from './service.js';

/** GET /api/v2/rate-limit-policies: the tenant's policies by id, checkpoint paging, filtered by resource, consumer, selector. */
export const listRateLimitPolicies: ManagementRouteFactory<RateLimitPolicyService> = (_ctx, policies) => managementRoute({
  method: 'GET',
  url: '/rate-limit-policies',
  config: { scopes: ['read:rate_limit_policies'] },
  schema: { querystring: ListQuery, response: { 200: RateLimitPolicyList } },
  handler: async (request) => policies.list(request.tenant, request.query),
});
