/**
 * The login, signup and forgot-password pages of a waiting authorization
 * request (`state` is its transaction id):
 *
 * - GET shows the form, with a CSRF token bound to the transaction and to
 *   this browser (./cookies.ts);
 * - POST checks the token, then the input; a login or signup sets the
 *   session cookie and goes on to consent or the response (./flow.ts).
 *
 * A login failure shows the form again with the error tied to its fields,
 * never saying whether the account exists.
 */
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { cspSourceOf, sendPage } from '../pages/html.js';
import { readCookie, BROWSER_COOKIE } from './cookies.js';
import { appendCookie, bindBrowser, continueAuthorization, field } from './flow.js';
import { forgotPasswordPage, forgotPasswordSentPage, invalidLoginPage, loginPage, refusedLoginPage, signupPage, type FormError } from '../pages/authorize.js';
import type { AuthorizeService, FormOutcome, Transaction } from './service.js';

/** The page state every form of a transaction carries. */
function view(service: AuthorizeService, tenant: Tenant, transaction: Transaction, browser: string) {
  return { clientName: transaction.client.row.name, state: transaction.id, csrf: service.csrfToken(tenant, transaction.id, browser) };
}

/** Where a successful post of the transaction's forms is redirected: the application's callback. */
export function formRedirects(transaction: Transaction): string[] {
  const source = cspSourceOf(transaction.request.redirect_target);
  return source === undefined ? [] : [source];
}

/** GET of a page: the transaction (else the expired-login page) and the browser binding. */
async function pageTransaction(service: AuthorizeService, request: FastifyRequest, reply: FastifyReply): Promise<{ transaction: Transaction; browser: string } | undefined> {
  const browser = bindBrowser(request, reply);
  const transaction = await service.transaction(request.tenant, field(request.query, 'state'), browser);
  return transaction && { transaction, browser };
}

/** The answers every form post shares: refused CSRF, spent transaction, success. */
async function settle(
  service: AuthorizeService,
  request: FastifyRequest,
  reply: FastifyReply,
  outcome: FormOutcome,
  refused: (transaction: Transaction, browser: string, error: FormError) => Promise<FastifyReply>,
): Promise<FastifyReply> {
  switch (outcome.kind) {
    case 'bad_csrf':
      return sendPage(reply, 403, refusedLoginPage());
    case 'invalid_transaction':
      return sendPage(reply, 400, invalidLoginPage());
    case 'refused':
      return refused(outcome.transaction, readCookie(request.headers.cookie, BROWSER_COOKIE)!, { message: outcome.message, ...(outcome.field !== undefined && { field: outcome.field }) });
    case 'authenticated':
      appendCookie(reply, outcome.cookie);
      return continueAuthorization(service, reply, request.tenant, outcome.transaction, outcome.authenticated, readCookie(request.headers.cookie, BROWSER_COOKIE)!);
  }
}

export function loginForm(service: AuthorizeService): RouteOptions {
  return {
    method: 'GET',
    url: '/login',
    handler: async (request, reply) => {
      const found = await pageTransaction(service, request, reply);
      if (!found) return sendPage(reply, 400, invalidLoginPage());
      const { transaction, browser } = found;
      const settings = await service.connectionSettings(request.tenant, transaction);
      return sendPage(reply, 200, loginPage({ ...view(service, request.tenant, transaction, browser), ...settings, ...(transaction.request.login_hint !== undefined && { identifier: transaction.request.login_hint }) }), formRedirects(transaction));
    },
  };
}

export function loginSubmit(service: AuthorizeService): RouteOptions {
  return {
    method: 'POST',
    url: '/login',
    handler: async (request, reply) => {
      const state = field(request.body, 'state');
      if (!state) return sendPage(reply, 400, invalidLoginPage());
      // `username` is the page's field; `email` is accepted from scripted clients of the earlier form.
      const identifier = field(request.body, 'username') ?? field(request.body, 'email') ?? '';
      const browser = readCookie(request.headers.cookie, BROWSER_COOKIE);
      const outcome = await service.login(request.tenant, state, browser, field(request.body, 'csrf_token'), identifier, field(request.body, 'password') ?? '', request.ip);
      return settle(service, request, reply, outcome, async (transaction, binding, error) => {
        const settings = await service.connectionSettings(request.tenant, transaction);
        return sendPage(reply, 400, loginPage({ ...view(service, request.tenant, transaction, binding), ...settings, identifier, error }), formRedirects(transaction));
      });
    },
  };
}

export function signupForm(service: AuthorizeService): RouteOptions {
  return {
    method: 'GET',
    url: '/signup',
    handler: async (request, reply) => {
      const found = await pageTransaction(service, request, reply);
      if (!found) return sendPage(reply, 400, invalidLoginPage());
      const { transaction, browser } = found;
      const { usernames } = await service.connectionSettings(request.tenant, transaction);
      return sendPage(reply, 200, signupPage({ ...view(service, request.tenant, transaction, browser), usernames, ...(transaction.request.login_hint !== undefined && { email: transaction.request.login_hint }) }), formRedirects(transaction));
    },
  };
}

export function signupSubmit(service: AuthorizeService): RouteOptions {
  return {
    method: 'POST',
    url: '/signup',
    handler: async (request, reply) => {
      const state = field(request.body, 'state');
      if (!state) return sendPage(reply, 400, invalidLoginPage());
      const email = field(request.body, 'email') ?? '';
      const username = field(request.body, 'username');
      const browser = readCookie(request.headers.cookie, BROWSER_COOKIE);
      const outcome = await service.signup(request.tenant, state, browser, field(request.body, 'csrf_token'), {
        email,
        password: field(request.body, 'password') ?? '',
        ...(username !== undefined && username !== '' && { username }),
      });
      return settle(service, request, reply, outcome, async (transaction, binding, error) => {
        const { usernames } = await service.connectionSettings(request.tenant, transaction);
        return sendPage(reply, 400, signupPage({ ...view(service, request.tenant, transaction, binding), usernames, email, ...(username !== undefined && { username }), error }), formRedirects(transaction));
      });
    },
  };
}

export function forgotPasswordForm(service: AuthorizeService): RouteOptions {
  return {
    method: 'GET',
    url: '/forgot-password',
    handler: async (request, reply) => {
      const found = await pageTransaction(service, request, reply);
      if (!found) return sendPage(reply, 400, invalidLoginPage());
      return sendPage(reply, 200, forgotPasswordPage(view(service, request.tenant, found.transaction, found.browser)));
    },
  };
}

export function forgotPasswordSubmit(service: AuthorizeService): RouteOptions {
  return {
    method: 'POST',
    url: '/forgot-password',
    handler: async (request, reply) => {
      const state = field(request.body, 'state');
      if (!state) return sendPage(reply, 400, invalidLoginPage());
      const email = field(request.body, 'email') ?? '';
      const browser = readCookie(request.headers.cookie, BROWSER_COOKIE);
      const outcome = await service.forgotPassword(request.tenant, state, browser, field(request.body, 'csrf_token'), email);
      if (outcome.kind === 'sent') return sendPage(reply, 200, forgotPasswordSentPage(state));
      return settle(service, request, reply, outcome, async (transaction, binding, error) =>
        sendPage(reply, 400, forgotPasswordPage({ ...view(service, request.tenant, transaction, binding), email, error })),
      );
    },
  };
}
