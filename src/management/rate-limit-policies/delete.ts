import { managementRoute, NoContent, type ManagementRouteFactory } from '../route.js';
import { RateLimitPolicyParams } from './schema.js';
import type { RateLimitPolicyService } from './service.js';

/** DELETE /api/v2/rate-limit-policies/{id} → 204. */
export const deleteRateLimitPolicy: ManagementRouteFactory<RateLimitPolicyService> = (_ctx, policies) => managementRoute({
  method: 'DELETE',
  url: '/rate-limit-policies/:id',
  config: { scopes: ['delete:rate_limit_policies'] },
  schema: { params: RateLimitPolicyParams, response: { 204: NoContent } },
  handler: async (request, reply) => {
    await policies.delete(request.tenant, request.params.id);
    return reply.code(204).send();
  },
});
