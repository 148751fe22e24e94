import type { GuardianMfaService } from '../../guardian/mfa-service.js';
import { EnrollmentList } from '../../guardian/mfa-schema.js';
import { managementRoute, type ManagementRouteFactory } from '../../route.js';
import { userIdParams } from '../schema.js';

/** GET /api/v2/users/{id}/enrollments → 200 the user's confirmed authenticator-app and SMS enrolments. */
export const listUserEnrollments: ManagementRouteFactory<GuardianMfaService> = (_ctx, mfa) => managementRoute({
  method: 'GET',
  url: '/users/:id/enrollments',
  config: { scopes: ['read:users', 'read:current_user'], currentUser: true },
  schema: { params: userIdParams('ID of the user to list enrollments for'), response: { 200: EnrollmentList } },
  handler: async (request) => mfa.enrollments(request.tenant, request.params.id),
});
