/**
 * The consent page of a waiting authorization request: the logged-in user
 * (the session cookie's) sees what the client asks for and accepts or
 * declines. Accepting records the grant (src/grants) and sends the response;
 * declining spends the transaction and sends `access_denied` (OIDC Core
 * §3.1.2.6), as the service does.
 */
import type { RouteOptions } from 'fastify';
import { sendPage } from '../pages/html.js';
import { BROWSER_COOKIE, readCookie } from './cookies.js';
import { formRedirects } from './login.js';
import { bindBrowser, continueAuthorization, field, sendAuthorizationResponse } from './flow.js';
import { consentPage, invalidLoginPage, refusedLoginPage } from '../pages/authorize.js';
import type { AuthorizeService } from './service.js';

export function consentForm(service: AuthorizeService): RouteOptions {
  return {
    method: 'GET',
    url: '/consent',
    handler: async (request, reply) => {
      const tenant = request.tenant;
      const browser = bindBrowser(request, reply);
      const transaction = await service.transaction(tenant, field(request.query, 'state'), browser);
      const authenticated = transaction && (await service.sessionUser(tenant, request.headers.cookie));
      if (!transaction || !authenticated) return sendPage(reply, 400, invalidLoginPage());
      const { user } = authenticated;
      const { apiName, scopes } = await service.consentView(tenant, transaction.client, transaction.request, user.user_id);
      return sendPage(
        reply,
        200,
        consentPage({
          clientName: transaction.client.row.name,
          state: transaction.id,
          csrf: service.csrfToken(tenant, transaction.id, browser),
          userName: user.email ?? user.username ?? user.user_id,
          ...(apiName !== undefined && { apiName }),
          scopes,
        }),
        formRedirects(transaction),
      );
    },
  };
}

export function consentSubmit(service: AuthorizeService): RouteOptions {
  return {
    method: 'POST',
    url: '/consent',
    handler: async (request, reply) => {
      const tenant = request.tenant;
      const state = field(request.body, 'state');
      if (!state) return sendPage(reply, 400, invalidLoginPage());
      const browser = readCookie(request.headers.cookie, BROWSER_COOKIE);
      if (!service.csrfMatches(tenant, state, browser, field(request.body, 'csrf_token'))) {
        return sendPage(reply, 403, refusedLoginPage());
      }
      const transaction = await service.transaction(tenant, state, browser);
      const authenticated = transaction && (await service.sessionUser(tenant, request.headers.cookie));
      if (!transaction || !authenticated) return sendPage(reply, 400, invalidLoginPage());

      if (field(request.body, 'decision') !== 'accept') {
        if (!(await service.consumeTransaction(tenant, state))) return sendPage(reply, 400, invalidLoginPage());
        return sendAuthorizationResponse(reply, transaction.request, { error: 'access_denied', error_description: 'User did not authorize the request' });
      }
      const consent = await service.wantedConsent(tenant, transaction.client, transaction.request, authenticated.user.user_id);
      await service.recordConsent(tenant, transaction.client, authenticated.user.user_id, consent);
      return continueAuthorization(service, reply, tenant, transaction, authenticated, browser!, true);
    },
  };
}
