import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../route.js';
import { CreateRateLimitPolicyBody, RateLimitPolicyResponse } from './schema.js';
import type { RateLimitPolicyService } from './service.js';

/** POST /api/v2/rate-limit-policies → 201 with the new policy; 409 for a second one of the same resource, consumer and selector. */
export const createRateLimitPolicy: ManagementRouteFactory<RateLimitPolicyService> = (_ctx, policies) => managementRoute({
  method: 'POST',
  url: '/rate-limit-policies',
  config: { scopes: ['create:rate_limit_policies'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], body: CreateRateLimitPolicyBody, response: { 201: RateLimitPolicyResponse } },
  handler: async (request, reply) => reply.code(201).send(await policies.create(request.tenant, request.body)),
});
