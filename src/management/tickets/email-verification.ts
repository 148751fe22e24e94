import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../route.js';
import { EmailVerificationTicketBody, TicketResponse } from './schema.js';
import type { TicketService } from './service.js';

/** POST /api/v2/tickets/email-verification → 201 `{ticket}`: a link to the verify-email page. */
export const createEmailVerificationTicket: ManagementRouteFactory<TicketService> = (_ctx, tickets) => managementRoute({
  method: 'POST',
  url: '/tickets/email-verification',
  config: { scopes: ['create:user_tickets'] },
  schema: { consumes: BODY_CONTENT_TYPES, body: EmailVerificationTicketBody, response: { 201: TicketResponse } },
  handler: async (request, reply) => reply.code(201).send(await tickets.emailVerification(request.tenant, request.body)),
});
