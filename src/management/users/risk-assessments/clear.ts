import { BODY_CONTENT_TYPES, managementRoute, NoContent, type ManagementRouteFactory } from '../../route.js';
import { ClearAssessorsBody, UserIdParams } from '../../risk-assessments/schema.js';
import type { RiskAssessmentService } from '../../risk-assessments/service.js';

/** POST /api/v2/users/{id}/risk-assessments/clear → 204: the named assessors (`new-device`) forget the user's devices. */
export const clearUserAssessors: ManagementRouteFactory<RiskAssessmentService> = (_ctx, risk) => managementRoute({
  method: 'POST',
  url: '/users/:id/risk-assessments/clear',
  config: { scopes: ['update:users'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], params: UserIdParams, body: ClearAssessorsBody, response: { 204: NoContent } },
  handler: async (request, reply) => {
    await risk.clear(request.tenant, request.params.id, request.body.connection, request.body.assessors);
    return reply.code(204).send();
  },
});
