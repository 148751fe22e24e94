import type { ManagementRoute } from '../route.js';
import { createEmailVerificationTicket } from './email-verification.js';
import { createPasswordChangeTicket } from './password-change.js';
import { TicketService, type TicketServiceContext } from './service.js';

/** /api/v2/tickets: password change and email verification links through the hosted pages. */
export function ticketRoutes(ctx: TicketServiceContext): ManagementRoute[] {
  const service = new TicketService(ctx);
  return [createPasswordChangeTicket, createEmailVerificationTicket].map((route) => route(ctx, service));
}
