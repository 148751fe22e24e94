import { managementRoute, type ManagementRouteFactory } from '../../route.js';
import type { GuardianMfaService } from '../mfa-service.js';
import { EnrollmentParams, GuardianEnrollment } from '../mfa-schema.js';

/** GET /api/v2/guardian/enrollments/{id} → 200 the enrolment; 404 "Enrollment not found.". */
export const getEnrollment: ManagementRouteFactory<GuardianMfaService> = (_ctx, mfa) => managementRoute({
  method: 'GET',
  url: '/guardian/enrollments/:id',
  config: { scopes: ['read:guardian_enrollments'] },
  schema: { params: EnrollmentParams, response: { 200: GuardianEnrollment } },
  handler: async (request) => mfa.enrollment(request.tenant, request.params.id),
});
