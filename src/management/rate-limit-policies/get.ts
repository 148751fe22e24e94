import { managementRoute, type ManagementRouteFactory } from '../route.js';
import { RateLimitPolicyParams, RateLimitPolicyResponse } from './schema.js';
import type { RateLimitPolicyService } from './service.js';

/** GET /api/v2/rate-limit-policies/{id} */
export const getRateLimitPolicy: ManagementRouteFactory<RateLimitPolicyService> = (_ctx, policies) => managementRoute({
  method: 'GET',
  url: '/rate-limit-policies/:id',
  config: { scopes: ['read:rate_limit_policies'] },
  schema: { params: RateLimitPolicyParams, response: { 200: RateLimitPolicyResponse } },
  handler: async (request) => policies.get(request.tenant, request.params.id),
});
