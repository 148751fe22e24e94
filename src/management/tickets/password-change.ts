import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../route.js';
import { PasswordChangeTicketBody, TicketResponse } from './schema.js';
import type { TicketService } from './service.js';

/** POST /api/v2/tickets/password-change → 201 `{ticket}`: a link to the reset-password page. */
export const createPasswordChangeTicket: ManagementRouteFactory<TicketService> = (_ctx, tickets) => managementRoute({
  method: 'POST',
  url: '/tickets/password-change',
  config: { scopes: ['create:user_tickets'] },
  schema: { consumes: BODY_CONTENT_TYPES, body: PasswordChangeTicketBody, response: { 201: TicketResponse } },
  handler: async (request, reply) => reply.code(201).send(await tickets.passwordChange(request.tenant, request.body)),
});
