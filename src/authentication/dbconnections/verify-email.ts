/**
 * The page behind the link of the verification email, GET|POST /verify-email
 * (its templates: ../pages/verify-email.ts):
 *
 * - GET /verify-email?ticket=…: a page with one button; it changes nothing,
 *   so a mail scanner or link preview that fetches the URL does not use up
 *   the single-use ticket (5 days);
 * - POST /verify-email (form: ticket, csrf_token): checks the CSRF token
 *   bound to the ticket (as the password reset form does), then consumes the
 *   ticket and marks the address verified in one transaction (on a custom
 *   database without import_mode, after its `verify` script marked it in the
 *   legacy store; a failing script leaves the ticket usable); then the
 *   browser goes to the tenant's `verify_email` template's `resultUrl` when
 *   it has one, else sees the page.
 *
 * One route for both methods, as the link and its form are one page.
 */
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { PageError } from '../errors.js';
import { sendPage } from '../pages/html.js';
import { refusedLinkPage } from '../pages/links.js';
import { emailVerifiedPage, invalidVerificationLinkPage, verifyEmailPage } from '../pages/verify-email.js';
import type { DbConnectionsService } from './service.js';
import { ticketLinkParams } from './ticket-link.js';

/** GET: the confirmation form while the ticket is usable; nothing is consumed. */
async function showForm(service: DbConnectionsService, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const { ticket } = ticketLinkParams(request, ['csrf_token'], invalidVerificationLinkPage);
  const state = await service.verificationForm(request.tenant, ticket);
  if (!state.usable) throw new PageError(400, invalidVerificationLinkPage());
  return sendPage(reply, 200, verifyEmailPage({ ticket, email: state.email, csrf: state.csrf }));
}

/** POST: CSRF, then the ticket is consumed and the address verified. */
async function confirm(service: DbConnectionsService, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const { ticket, csrf_token } = ticketLinkParams(request, ['csrf_token'], invalidVerificationLinkPage);
  const outcome = await service.verifyEmail(request.tenant, ticket, csrf_token);
  switch (outcome.kind) {
    case 'done': {
      // A Management API ticket's result_url first, else the tenant's verify_email template's resultUrl.
      const target = outcome.redirect ?? (await service.verificationResultUrl(request.tenant, outcome.email));
      if (target !== undefined) return reply.code(302).header('Location', target).header('Cache-Control', 'no-store').send();
      return sendPage(reply, 200, emailVerifiedPage(outcome.email));
    }
    case 'bad_csrf':
      throw new PageError(403, refusedLinkPage());
    case 'invalid_ticket':
      throw new PageError(400, invalidVerificationLinkPage());
    case 'refused': {
      // Nothing was consumed: the same form again, with why, so the user may try once more.
      const state = await service.verificationForm(request.tenant, ticket);
      if (!state.usable) throw new PageError(400, invalidVerificationLinkPage());
      throw new PageError(400, verifyEmailPage({ ticket, email: state.email, csrf: state.csrf, error: outcome.message }));
    }
  }
}

export function verifyEmailRoute(service: DbConnectionsService): RouteOptions {
  return {
    method: ['GET', 'POST'],
    url: '/verify-email',
    handler: (request: FastifyRequest, reply: FastifyReply) => (request.method === 'POST' ? confirm(service, request, reply) : showForm(service, request, reply)),
  };
}
