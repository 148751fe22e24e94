/**
 * The password reset page behind the emailed link:
 *
 * - GET /reset-password?ticket=…: a form with the connection's policy and a
 *   CSRF token bound to the ticket;
 * - POST /reset-password (form): checks the token, the ticket and the policy,
 *   then sets the password and consumes the ticket atomically.
 *
 * No external assets (see html.ts renderPage); errors are shown on the
 * page, announced to screen readers (role="alert"), and tied to the field
 * (aria-describedby).
 */
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { PolicyResult } from '../dbconnections/password-policy.js';
import type { DbConnectionsService } from '../dbconnections/service.js';
import { pageParams } from '../params.js';
import { newPasswordFields } from './authorize.js';
import { html, page, sendPage, type PageDocument } from './html.js';
import { invalidLink, refusedLinkPage } from './links.js';

const MAX_TICKET = 200;

function invalidLinkPage(): PageDocument {
  return invalidLink((ui) => ui.text('reset-password', 'reset-password-error', 'description'));
}

function formPage(ticket: string, email: string, csrf: string, policy: PolicyResult, error?: { key: 'password-mismatch' | 'password-too-weak'; showRules: boolean }): PageDocument {
  const S = 'reset-password' as const;
  return page(
    (ui) => ui.text(S, S, 'pageTitle'),
    (ui) => html`<h1>${ui.text(S, S, 'title')}</h1>
<p>${ui.rich(S, S, 'description', { email })}</p>
${error ? html`<p id="error" class="error" role="alert">${ui.text(S, S, error.key)}</p>` : ''}
<form method="post" action="/reset-password">
<input type="hidden" name="ticket" value="${ticket}">
<input type="hidden" name="csrf_token" value="${csrf}">
${newPasswordFields(
  ui,
  { passwordLabel: ui.text(S, S, 'passwordLabel'), policyTitle: ui.text(S, S, 'policyTitle'), confirmationLabel: ui.text(S, S, 'reEnterPasswordLabel') },
  policy,
  { invalid: error !== undefined, showRules: error?.showRules === true },
)}
<button type="submit">${ui.text(S, S, 'buttonText')}</button>
</form>`,
  );
}

const PARAMS = ['ticket', 'csrf_token', 'password', 'password_confirmation'];

function validTicket(ticket: string | undefined): ticket is string {
  return ticket !== undefined && ticket.length > 0 && ticket.length <= MAX_TICKET;
}

export function resetPasswordForm(service: DbConnectionsService): RouteOptions {
  return {
    method: 'GET',
    url: '/reset-password',
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      const ticket = pageParams(request, PARAMS).ticket;
      if (!validTicket(ticket)) return sendPage(reply, 400, invalidLinkPage());
      const state = await service.resetForm(request.tenant, ticket);
      if (!state.usable) return sendPage(reply, 400, invalidLinkPage());
      return sendPage(reply, 200, formPage(ticket, state.email, state.csrf, state.policy));
    },
  };
}

export function resetPasswordSubmit(service: DbConnectionsService): RouteOptions {
  return {
    method: 'POST',
    url: '/reset-password',
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      const params = pageParams(request, PARAMS);
      const ticket = params.ticket;
      const password = params.password ?? '';
      if (!validTicket(ticket) || password.length > 1024) return sendPage(reply, 400, invalidLinkPage());
      const outcome = await service.resetPassword(
        request.tenant,
        ticket,
        params.csrf_token,
        password,
        params.password_confirmation,
        request,
      );
      const csrf = () => service.csrfToken(request.tenant, ticket);
      switch (outcome.kind) {
        case 'done':
          if (outcome.redirect) return reply.redirect(outcome.redirect, 302);
          return sendPage(
            reply,
            200,
            page(
              (ui) => ui.text('reset-password', 'reset-password-success', 'pageTitle'),
              (ui) => html`<h1>${ui.text('reset-password', 'reset-password-success', 'title')}</h1><p class="ok" role="status">${ui.rich('reset-password', 'reset-password-success', 'description', { email: outcome.email })}</p>`,
            ),
          );
        case 'bad_csrf':
          return sendPage(reply, 403, refusedLinkPage());
        case 'invalid_ticket':
          return sendPage(reply, 400, invalidLinkPage());
        case 'mismatch':
          return sendPage(reply, 400, formPage(ticket, outcome.email, csrf(), outcome.policy, { key: 'password-mismatch', showRules: false }));
        case 'weak':
          return sendPage(
            reply,
            400,
            formPage(ticket, outcome.email, csrf(), outcome.policy, { key: 'password-too-weak', showRules: true }),
          );
      }
    },
  };
}
