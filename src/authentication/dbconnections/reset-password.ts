/**
 * The password reset page behind the emailed link (its templates:
 * ../pages/reset-password.ts):
 *
 * - GET /reset-password?ticket=…: a form with the connection's policy and a
 *   CSRF token bound to the ticket;
 * - POST /reset-password (form): checks the token, the ticket and the policy,
 *   then sets the password and consumes the ticket atomically.
 */
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { PageError } from '../errors.js';
import { sendPage } from '../pages/html.js';
import { refusedLinkPage } from '../pages/links.js';
import { invalidResetLinkPage, passwordChangedPage, resetPasswordPage } from '../pages/reset-password.js';
import type { PolicyResult } from './password-policy.js';
import type { DbConnectionsService } from './service.js';
import { ticketLinkParams } from './ticket-link.js';

/** Longer than any password a policy accepts: refused before it is hashed. */
const MAX_PASSWORD = 1024;

const PARAMS = ['csrf_token', 'password', 'password_confirmation'] as const;

export function resetPasswordRoutes(service: DbConnectionsService): RouteOptions[] {
  return [
    {
      method: 'GET',
      url: '/reset-password',
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        const { ticket } = ticketLinkParams(request, PARAMS, invalidResetLinkPage);
        const state = await service.resetForm(request.tenant, ticket);
        if (!state.usable) throw new PageError(400, invalidResetLinkPage());
        return sendPage(reply, 200, resetPasswordPage({ ticket, email: state.email, csrf: state.csrf, policy: state.policy }));
      },
    },
    {
      method: 'POST',
      url: '/reset-password',
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        const params = ticketLinkParams(request, PARAMS, invalidResetLinkPage);
        const { ticket } = params;
        const password = params.password ?? '';
        if (password.length > MAX_PASSWORD) throw new PageError(400, invalidResetLinkPage());
        const outcome = await service.resetPassword(request.tenant, ticket, params.csrf_token, password, params.password_confirmation, request);
        const formAgain = (email: string, policy: PolicyResult, key: 'password-mismatch' | 'password-too-weak') =>
          new PageError(
            400,
            resetPasswordPage({
              ticket,
              email,
              csrf: service.csrfToken(request.tenant, ticket),
              policy,
              error: { message: (ui) => ui.text('reset-password', 'reset-password', key), showRules: key === 'password-too-weak' },
            }),
          );
        switch (outcome.kind) {
          case 'done':
            if (outcome.redirect) return reply.redirect(outcome.redirect, 302);
            return sendPage(reply, 200, passwordChangedPage(outcome.email));
          case 'bad_csrf':
            throw new PageError(403, refusedLinkPage());
          case 'invalid_ticket':
            throw new PageError(400, invalidResetLinkPage());
          case 'mismatch':
            throw formAgain(outcome.email, outcome.policy, 'password-mismatch');
          case 'weak':
            throw formAgain(outcome.email, outcome.policy, 'password-too-weak');
          case 'refused':
            throw new PageError(
              400,
              resetPasswordPage({ ticket, email: outcome.email, csrf: service.csrfToken(request.tenant, ticket), policy: outcome.policy, error: { message: () => outcome.message, showRules: false } }),
            );
        }
      },
    },
  ];
}
