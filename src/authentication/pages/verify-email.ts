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
 * scripts and no external assets (see PAGE_CSP); errors are announced to
 * screen readers (role="alert").
 */
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { DbConnectionsService } from '../dbconnections/service.js';
import { pageParams } from '../params.js';
import { html, page, sendPage, type Html } from './html.js';

const MAX_TICKET = 200;

const PARAMS = ['ticket', 'csrf_token'];

function validTicket(ticket: string | undefined): ticket is string {
  return ticket !== undefined && ticket.length > 0 && ticket.length <= MAX_TICKET;
}

function invalidLinkPage(): Html {
  return page(
    'Link not valid',
    html`<h1>This link is not valid</h1><p class="error" role="alert">The verification link is invalid, has expired, or was already used.</p>`,
  );
}

function confirmPage(ticket: string, email: string, csrf: string): Html {
  return page(
    'Verify your email',
    html`<h1>Verify your email</h1>
<p>Confirm that <strong>${email}</strong> is your address.</p>
<form method="post" action="/verify-email">
<input type="hidden" name="ticket" value="${ticket}">
<input type="hidden" name="csrf_token" value="${csrf}">
<button type="submit">Verify my email</button>
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
      return sendPage(reply, 200, page('Email verified', html`<h1>Email verified</h1><p class="ok">Thank you. The address <strong>${outcome.email}</strong> is verified.</p>`));
    }
    case 'bad_csrf':
      return sendPage(
        reply,
        403,
        page('Request refused', html`<h1>Request refused</h1><p class="error" role="alert">This form could not be verified. Open the link from your email again.</p>`),
      );
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
