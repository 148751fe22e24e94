/**
 * GET /authorize (RFC 6749 §4.1.1; authentication-api-wire-notes §4) as a
 * pipeline of named steps: read the query, find the client, resolve the
 * redirect target (failures: a page, never a redirect), validate the rest
 * (failures: an error response to the redirect target), then either issue a
 * code for the current session or send the browser to /login.
 */
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { IssuanceClient } from '../../cache/issuance.js';
import { sendPage } from '../pages/html.js';
import { authorizeErrorPage } from './pages.js';
import {
  AuthorizePageError,
  AuthorizeRedirectError,
  resolveRedirectTarget,
  responseModeOf,
  validateAuthorizeRequest,
  type AuthorizeRequest,
} from './request.js';
import { RESPONSE_MODES } from './response-modes.js';
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

/** Sends the authorization response (a code, or an error) through the request's response mode. */
export function sendAuthorizationResponse(reply: FastifyReply, request: Pick<AuthorizeRequest, 'redirect_target' | 'response_mode' | 'state'>, response: Record<string, string>): FastifyReply {
  return RESPONSE_MODES[request.response_mode].send(reply, request.redirect_target, { ...response, state: request.state });
}

export function authorizeEndpoint(service: AuthorizeService): RouteOptions {
  return {
    method: 'GET',
    url: '/authorize',
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      let params: Record<string, string>;
      let redirectTarget: string;
      let client: IssuanceClient | undefined;
      try {
        params = readQuery(request);
        if (!params.client_id) throw new AuthorizePageError('Missing required parameter: client_id');
        client = await service.client(request.tenant, params.client_id);
        if (!client) throw new AuthorizePageError('Unknown client.');
        redirectTarget = resolveRedirectTarget(client, params.redirect_uri);
      } catch (error) {
        if (error instanceof AuthorizePageError) return sendPage(reply, 400, authorizeErrorPage(error.message));
        throw error;
      }

      let authorize: AuthorizeRequest;
      try {
        authorize = validateAuthorizeRequest(client, params, redirectTarget);
      } catch (error) {
        if (!(error instanceof AuthorizeRedirectError)) throw error;
        const failed = { redirect_target: redirectTarget, response_mode: responseModeOf(params), ...(params.state !== undefined && { state: params.state }) };
        return sendAuthorizationResponse(reply, failed, { error: error.error, error_description: error.description });
      }

      const session = authorize.prompt === 'login' ? undefined : await service.session(request.tenant, request.headers.cookie);
      if (session) {
        const code = await service.issueCode(request.tenant, authorize, session.user_id, session);
        return sendAuthorizationResponse(reply, authorize, { code });
      }
      if (authorize.prompt === 'none') {
        return sendAuthorizationResponse(reply, authorize, { error: 'login_required', error_description: 'Login required' });
      }
      const transaction = await service.startTransaction(request.tenant, authorize);
      return reply.code(302).header('Location', `/login?state=${encodeURIComponent(transaction)}`).header('Cache-Control', 'no-store').send();
    },
  };
}
