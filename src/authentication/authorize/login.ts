/**
 * The login page of the authorization code flow:
 *
 * - GET /login?state=…: the form for the waiting authorization request, with
 *   a CSRF token bound to it;
 * - POST /login (form): checks the token, then the credentials; on success
 *   sets the session cookie and sends the code to the redirect target.
 */
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { sendPage } from '../pages/html.js';
import { sendAuthorizationResponse } from './authorize.js';
import { invalidLoginPage, loginPage, refusedLoginPage } from './pages.js';
import type { AuthorizeService } from './service.js';

const MAX_FIELD = 1024;

function field(source: unknown, name: string): string | undefined {
  const value = (source as Record<string, unknown> | null | undefined)?.[name];
  return typeof value === 'string' && value.length <= MAX_FIELD ? value : undefined;
}

export function loginForm(service: AuthorizeService): RouteOptions {
  return {
    method: 'GET',
    url: '/login',
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      const state = field(request.query, 'state');
      const found = state === undefined ? undefined : await service.transaction(request.tenant, state);
      if (!state || !found) return sendPage(reply, 400, invalidLoginPage());
      return sendPage(reply, 200, loginPage(found.client.row.name, state, service.csrfToken(request.tenant, state)));
    },
  };
}

export function loginSubmit(service: AuthorizeService): RouteOptions {
  return {
    method: 'POST',
    url: '/login',
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      const state = field(request.body, 'state');
      if (!state) return sendPage(reply, 400, invalidLoginPage());
      const email = field(request.body, 'email') ?? '';
      const outcome = await service.login(request.tenant, state, field(request.body, 'csrf_token'), email, field(request.body, 'password') ?? '', request.ip);
      switch (outcome.kind) {
        case 'bad_csrf':
          return sendPage(reply, 403, refusedLoginPage());
        case 'invalid_transaction':
          return sendPage(reply, 400, invalidLoginPage());
        case 'refused':
          return sendPage(reply, 400, loginPage(outcome.client.row.name, state, service.csrfToken(request.tenant, state), email, outcome.message));
        case 'done':
          reply.header('Set-Cookie', outcome.cookie);
          return sendAuthorizationResponse(reply, outcome.request, { code: outcome.code });
      }
    },
  };
}
