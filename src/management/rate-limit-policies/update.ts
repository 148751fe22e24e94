import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../route.js';
import { PatchRateLimitPolicyBody, RateLimitPolicyParams, RateLimitPolicyResponse } from './schema.js';
import type { RateLimitPolicyService } from './service.js';

/** PATCH /api/v2/rate-limit-policies/{id} `{configuration}`: the configuration replaced. */
export const updateRateLimitPolicy: ManagementRouteFactory<RateLimitPolicyService> = (_ctx, policies) => managementRoute({
  method: 'PATCH',
  url: '/rate-limit-policies/:id',
  config: { scopes: ['update:rate_limit_policies'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], params: RateLimitPolicyParams, body: PatchRateLimitPolicyBody, response: { 200: RateLimitPolicyResponse } },
  handler: async (request) => policies.update(request.tenant, request.params.id, request.body),
});
