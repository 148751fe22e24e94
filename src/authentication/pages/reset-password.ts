/**
 * The password reset page behind the emailed link:
 *
 * - GET /reset-password?ticket=…: a form with the connection's policy and a
 *   CSRF token bound to the ticket;
 * - POST /reset-password (form): checks the token, the ticket and the policy,
 *   then sets the password and consumes the ticket atomically.
 *
 * No scripts and no external assets (see PAGE_CSP); errors are shown on the
 * page, announced to screen readers (role="alert"), and tied to the field
 * (aria-describedby).
 */
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { ruleSentences, type PolicyResult } from '../dbconnections/password-policy.js';
import type { DbConnectionsService } from '../dbconnections/service.js';
import { pageParams } from '../params.js';
import { html, page, sendPage, type Html } from './html.js';

const MAX_TICKET = 200;

function invalidLinkPage(): Html {
  return page(
    'Link not valid',
    html`<h1>This link is not valid</h1><p class="error" role="alert">The password reset link is invalid, has expired, or was already used. Ask for a new one.</p>`,
  );
}

function policyList(policy: PolicyResult, showResult: boolean): Html {
  return html`<ul id="policy">${ruleSentences(policy).map(
    (rule) =>
      html`<li>${rule.text}${showResult ? (rule.verified ? ' (met)' : ' (not met)') : ''}${
        rule.items.length > 0 ? html`<ul>${rule.items.map((item) => html`<li>${item.message}</li>`)}</ul>` : ''
      }</li>`,
  )}</ul>`;
}

function formPage(ticket: string, email: string, csrf: string, policy: PolicyResult, error?: { message: string; showRules: boolean }): Html {
  const describedBy = error ? 'error policy' : 'policy';
  return page(
    'Reset your password',
    html`<h1>Reset your password</h1>
<p>Choose a new password for <strong>${email}</strong>.</p>
${error ? html`<p id="error" class="error" role="alert">${error.message}</p>` : ''}
<p>The password must meet these rules:</p>
${policyList(policy, error?.showRules === true)}
<form method="post" action="/reset-password">
<input type="hidden" name="ticket" value="${ticket}">
<input type="hidden" name="csrf_token" value="${csrf}">
<label for="password">New password</label>
<input type="password" id="password" name="password" autocomplete="new-password" required aria-describedby="${describedBy}"${error ? html` aria-invalid="true"` : ''}>
<label for="password_confirmation">Confirm new password</label>
<input type="password" id="password_confirmation" name="password_confirmation" autocomplete="new-password" required>
<button type="submit">Set password</button>
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
            page('Password changed', html`<h1>Password changed</h1><p class="ok">The password of <strong>${outcome.email}</strong> has been changed. You can now sign in with it.</p>`),
          );
        case 'bad_csrf':
          return sendPage(
            reply,
            403,
            page('Request refused', html`<h1>Request refused</h1><p class="error" role="alert">This form could not be verified. Open the link from your email again.</p>`),
          );
        case 'invalid_ticket':
          return sendPage(reply, 400, invalidLinkPage());
        case 'mismatch':
          return sendPage(reply, 400, formPage(ticket, outcome.email, csrf(), outcome.policy, { message: 'The two passwords do not match.', showRules: false }));
        case 'weak':
          return sendPage(
            reply,
            400,
            formPage(ticket, outcome.email, csrf(), outcome.policy, { message: 'The password is too weak: it does not meet the rules below.', showRules: true }),
          );
      }
    },
  };
}
