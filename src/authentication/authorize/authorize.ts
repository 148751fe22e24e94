/**
 * GET /authorize (RFC 6749 §4.1.1, §4.2.1; OIDC Core §3; authentication-api-
 * wire-notes §4) as a pipeline of named steps: read the query, find the
 * client, resolve the redirect target (failures: a page, never a redirect),
 * validate the rest (failures: an error response to the redirect target),
 * then answer from a usable session (./flow.ts), refuse under `prompt=none`,
 * or keep the request and send the browser to the login (or, with
 * `screen_hint=signup`, the signup) page.
 */
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { IssuanceClient } from '../../domain/issuance/lookups.js';
import { sendPage } from '../pages/html.js';
import { bindBrowser, continueAuthorization, redirectToPage, sendAuthorizationResponse } from './flow.js';
import { authorizeErrorPage } from '../pages/authorize.js';
import {
  AuthorizePageError,
  AuthorizeRedirectError,
  checkWebMessageOrigin,
  resolveRedirectTarget,
  responseModeOf,
  validateAuthorizeRequest,
  type AuthorizeRequest,
} from './request.js';
import type { AuthorizeService } from './service.js';

/** Query parameters as single strings; a repeated parameter is refused (RFC 6749 §3.1). */
function readQuery(request: FastifyRequest): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [name, value] of Object.entries((request.query ?? {}) as Record<string, unknown>)) {
    if (typeof value === 'string') params[name] = value;
    else if (value !== undefined) throw new AuthorizePageError(`Parameter ${name} must not be repeated.`);
  }
  return params;
}

export function authorizeEndpoint(service: AuthorizeService): RouteOptions {
  return {
    method: 'GET',
    url: '/authorize',
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      const tenant = request.tenant;
      let params: Record<string, string>;
      let redirectTarget: string;
      let client: IssuanceClient | undefined;
      try {
        params = readQuery(request);
        if (!params.client_id) throw new AuthorizePageError('Missing required parameter: client_id');
        client = await service.client(tenant, params.client_id);
        if (!client) throw new AuthorizePageError('Unknown client.');
        redirectTarget = resolveRedirectTarget(client, params.redirect_uri);
        checkWebMessageOrigin(client, params, redirectTarget);
      } catch (error) {
        if (error instanceof AuthorizePageError) return sendPage(reply, 400, authorizeErrorPage(error.message));
        throw error;
      }

      let authorize: AuthorizeRequest;
      try {
        authorize = validateAuthorizeRequest(client, params, redirectTarget);
        if (authorize.audience !== undefined && !(await service.apiExists(tenant, authorize.audience))) {
          throw new AuthorizeRedirectError('access_denied', `Service not enabled within domain: ${authorize.audience}`);
        }
      } catch (error) {
        if (!(error instanceof AuthorizeRedirectError)) throw error;
        const failed = { redirect_target: redirectTarget, response_mode: responseModeOf(params), ...(params.state !== undefined && { state: params.state }) };
        return sendAuthorizationResponse(reply, failed, { error: error.error, error_description: error.description });
      }

      const authenticated = await service.usableSession(tenant, client, authorize, request.headers.cookie);
      if (authenticated) return continueAuthorization(service, reply, tenant, { request: authorize, client }, authenticated, bindBrowser(request, reply));
      if (authorize.prompt === 'none') {
        return sendAuthorizationResponse(reply, authorize, { error: 'login_required', error_description: 'Login required' });
      }
      const transaction = await service.startTransaction(tenant, authorize, bindBrowser(request, reply));
      return redirectToPage(reply, authorize.screen_hint === 'signup' ? '/signup' : '/login', transaction);
    },
  };
}
