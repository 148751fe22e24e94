import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../../route.js';
import { coerceFormBooleans } from '../form.js';
import type { GuardianMfaService } from '../mfa-service.js';
import { EnrollmentTicketBody, EnrollmentTicketResponse } from '../mfa-schema.js';

/**
 * POST /api/v2/guardian/enrollments/ticket → 200 `{ticket_id, ticket_url}`:
 * the user enrols an authenticator app on the ticket's page (/guardian/enroll),
 * once, before the ticket expires; `send_mail` mails them the URL.
 */
export const createEnrollmentTicket: ManagementRouteFactory<GuardianMfaService> = (_ctx, mfa) => managementRoute({
  method: 'POST',
  url: '/guardian/enrollments/ticket',
  config: { scopes: ['create:guardian_enrollment_tickets'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], body: EnrollmentTicketBody, response: { 200: EnrollmentTicketResponse } },
  preValidation: coerceFormBooleans(EnrollmentTicketBody),
  handler: async (request) => mfa.createEnrollmentTicket(request.tenant, request.body),
});
