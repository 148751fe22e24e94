/**
 * GET /verify-email?ticket=…: the link of the verification email. Marks the
 * address verified (the ticket works once, for 5 days) and says so.
 */
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { DbConnectionsService } from '../dbconnections/service.js';
import { html, page, sendPage } from './html.js';

function ticketOf(request: FastifyRequest): string | undefined {
  const ticket = (request.query as Record<string, unknown> | undefined)?.ticket;
  return typeof ticket === 'string' && ticket.length > 0 && ticket.length <= 200 ? ticket : undefined;
}

export function verifyEmailPage(service: DbConnectionsService): RouteOptions {
  return {
    method: 'GET',
    url: '/verify-email',
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      const ticket = ticketOf(request);
      const email = ticket === undefined ? undefined : await service.verifyEmail(request.tenant, ticket);
      if (email === undefined) {
        return sendPage(
          reply,
          400,
          page('Link not valid', html`<h1>This link is not valid</h1><p class="error" role="alert">The verification link is invalid, has expired, or was already used.</p>`),
        );
      }
      return sendPage(reply, 200, page('Email verified', html`<h1>Email verified</h1><p class="ok">Thank you. The address <strong>${email}</strong> is verified.</p>`));
    },
  };
}
