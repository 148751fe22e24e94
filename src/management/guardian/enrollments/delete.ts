import { managementRoute, NoContent, type ManagementRouteFactory } from '../../route.js';
import type { GuardianMfaService } from '../mfa-service.js';
import { EnrollmentParams } from '../mfa-schema.js';

/** DELETE /api/v2/guardian/enrollments/{id} → 204: the user may enrol again. */
export const deleteEnrollment: ManagementRouteFactory<GuardianMfaService> = (_ctx, mfa) => managementRoute({
  method: 'DELETE',
  url: '/guardian/enrollments/:id',
  config: { scopes: ['delete:guardian_enrollments'] },
  schema: { params: EnrollmentParams, response: { 204: NoContent } },
  handler: async (request, reply) => {
    await mfa.deleteEnrollment(request.tenant, request.params.id);
    return reply.code(204).send();
  },
});
