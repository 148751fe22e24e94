/**
 * The page behind the link of the verification email, GET|POST /verify-email:
 *
 * - GET /verify-email?ticket=…: a page with one button; it changes nothing,
 *   so a mail scanner or link preview that fetches the URL does not use up
 *   the single-use ticket (5 days);
 * - POST /verify-email (form: ticket, csrf_token): checks the CSRF token
 *   bound to the ticket (as the password reset form does), then consumes the
 *   ticket and marks the address verified in one transaction; then the
 *   browser goes to the tenant's `verify_email` template's `resultUrl` when
 *   it has one, else sees the page.
 *
 * One route for both methods, as the link and its form are one page. No
 * external assets (see html.ts renderPage); errors are announced to
 * screen readers (role="alert").
 */
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { DbConnectionsService } from '../dbconnections/service.js';
import { pageParams } from '../params.js';
import { html, page, sendPage, type PageDocument } from './html.js';
import { invalidLink, refusedLinkPage } from './links.js';

const MAX_TICKET = 200;

const PARAMS = ['ticket', 'csrf_token'];

function validTicket(ticket: string | undefined): ticket is string {
  return ticket !== undefined && ticket.length > 0 && ticket.length <= MAX_TICKET;
}

function invalidLinkPage(): PageDocument {
  return invalidLink((ui) => ui.text('email-verification', 'email-verification-result', 'errorDescription'));
}

function confirmPage(ticket: string, email: string, csrf: string): PageDocument {
  const S = 'email-verification' as const;
  return page(
    (ui) => ui.text(S, S, 'pageTitle'),
    (ui) => html`<h1>${ui.text(S, S, 'title')}</h1>
<p>${ui.rich(S, S, 'description', { email })}</p>
<form method="post" action="/verify-email">
<input type="hidden" name="ticket" value="${ticket}">
<input type="hidden" name="csrf_token" value="${csrf}">
<button type="submit">${ui.text(S, S, 'buttonText')}</button>
</form>`,
  );
}

/** GET: the confirmation form while the ticket is usable; nothing is consumed. */
async function showForm(service: DbConnectionsService, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const ticket = pageParams(request, PARAMS).ticket;
  if (!validTicket(ticket)) return sendPage(reply, 400, invalidLinkPage());
  const state = await service.verificationForm(request.tenant, ticket);
  if (!state.usable) return sendPage(reply, 400, invalidLinkPage());
  return sendPage(reply, 200, confirmPage(ticket, state.email, state.csrf));
}

/** POST: CSRF, then the ticket is consumed and the address verified. */
async function confirm(service: DbConnectionsService, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const params = pageParams(request, PARAMS);
  const ticket = params.ticket;
  if (!validTicket(ticket)) return sendPage(reply, 400, invalidLinkPage());
  const outcome = await service.verifyEmail(request.tenant, ticket, params.csrf_token);
  switch (outcome.kind) {
    case 'done': {
      // A Management API ticket's result_url first, else the tenant's verify_email template's resultUrl.
      const target = outcome.redirect ?? (await service.verificationResultUrl(request.tenant, outcome.email));
      if (target !== undefined) return reply.code(302).header('Location', target).header('Cache-Control', 'no-store').send();
      return sendPage(
        reply,
        200,
        page(
          (ui) => ui.text('email-verification', 'email-verification-result', 'pageTitle'),
          (ui) => html`<h1>${ui.text('email-verification', 'email-verification-result', 'title')}</h1><p class="ok" role="status">${ui.rich('email-verification', 'email-verification-result', 'description', { email: outcome.email })}</p>`,
        ),
      );
    }
    case 'bad_csrf':
      return sendPage(reply, 403, refusedLinkPage());
    case 'invalid_ticket':
      return sendPage(reply, 400, invalidLinkPage());
  }
}

export function verifyEmailPage(service: DbConnectionsService): RouteOptions {
  return {
    method: ['GET', 'POST'],
    url: '/verify-email',
    handler: (request: FastifyRequest, reply: FastifyReply) =>
      request.method === 'POST' ? confirm(service, request, reply) : showForm(service, request, reply),
  };
}
