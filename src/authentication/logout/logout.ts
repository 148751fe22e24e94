/**
 * The logout endpoints (authentication-api-wire-notes §9):
 *
 * - GET /v2/logout?returnTo&client_id&federated;
 * - GET|POST /oidc/logout (OpenID Connect RP-Initiated Logout 1.0 §2):
 *   id_token_hint, logout_hint, client_id, post_logout_redirect_uri, state.
 *
 * Everything is checked before anything changes: a request that fails ends
 * no session and gets a 400 page without Location (no open redirect). On
 * success the session is revoked, the cookie cleared, and the browser sent to
 * the allowed URL, or shown the logged-out page. /oidc/logout without an
 * id_token_hint first asks the user (RP-Initiated Logout 1.0 §2: nothing
 * then shows the request comes from the session's own application), unless
 * there is no session to end. With `client_id` and no
 * return URL, the client's first Allowed Logout URL is used, as the service
 * does (wire notes §9, §16.9), unless it is a wildcard. `federated` is
 * accepted and ignored: there are no upstream identity providers.
 */
import { logAuthenticationEvent } from '../tenant-log.js';
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { IssuanceClient } from '../../domain/issuance/lookups.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { clearedSessionCookie } from '../cookies.js';
import { pageErrors } from '../errors.js';
import { pageParams } from '../params.js';
import { cspSourceOf, sendPage } from '../pages/html.js';
import { confirmLogoutPage, loggedOutPage } from '../pages/logout.js';
import { logoutUrlAllowed, type IdTokenHint, type LogoutService } from './service.js';
import type { SessionRow } from '../../domain/rows.js';
import { samlLogoutNotices, sendLogoutNotices } from '../samlp/logout.js';

const V2_LOGOUT_PARAMS = ['returnTo', 'client_id', 'federated'];
const OIDC_LOGOUT_PARAMS = ['id_token_hint', 'logout_hint', 'client_id', 'post_logout_redirect_uri', 'state', 'ui_locales', 'confirm', 'csrf_token'];

/**
 * Where to go after logout: `returnTo` when allowed, else (no returnTo, a
 * client named) the client's first non-wildcard URL, else undefined (the page).
 */
function resolveReturn(service: LogoutService, tenant: Tenant, client: IssuanceClient | undefined, returnTo: string | undefined, name: string): string | undefined {
  const allowed = service.allowedUrls(tenant, client);
  if (returnTo === undefined || returnTo === '') {
    const first = client ? allowed[0] : undefined;
    return first !== undefined && !first.includes('*') && URL.canParse(first) ? first : undefined;
  }
  if (!logoutUrlAllowed(allowed, returnTo)) {
    throw pageErrors.logout(`The "${name}" querystring parameter "${returnTo}" is not defined as a valid URL in "Allowed Logout URLs".`);
  }
  return returnTo;
}

async function namedClient(service: LogoutService, tenant: Tenant, clientId: string | undefined): Promise<IssuanceClient | undefined> {
  if (clientId === undefined) return undefined;
  const client = await service.client(tenant, clientId);
  if (!client) throw pageErrors.logout('Unknown client.');
  return client;
}

/** Whether a verified id_token_hint was issued for this session: same user, and the same sid when it carries one. */
function hintNamesSession(hint: IdTokenHint | undefined, session: SessionRow): boolean {
  return hint !== undefined && hint.sub === session.user_id && (hint.sid === undefined || hint.sid === session.id_hash);
}

/** Ends the cookie's session and answers: a redirect to `target`, or the logged-out page. */
async function finish(service: LogoutService, request: FastifyRequest, reply: FastifyReply, target: string | undefined, client: IssuanceClient | undefined): Promise<FastifyReply> {
  const session = await service.session(request.tenant, request.headers.cookie);
  logAuthenticationEvent(service.ctx, request, { type: 'slo', client_id: client?.row.client_id, client_name: client?.row.name, user_id: session?.user_id, ...(target !== undefined && { details: { return_to: target } }) });
  // SAML service providers with `logout.slo_enabled` the session answered are told first (../samlp/logout.ts).
  const notices = await samlLogoutNotices(service.ctx, request.tenant, session);
  await service.endSession(request.tenant, session);
  reply.header('Set-Cookie', clearedSessionCookie());
  if (notices.length > 0) return sendLogoutNotices(reply, notices, target === undefined ? undefined : { url: target });
  if (target === undefined) return sendPage(reply, 200, loggedOutPage());
  return reply.code(302).header('Location', target).header('Cache-Control', 'no-store').send();
}

export function v2LogoutEndpoint(service: LogoutService): RouteOptions {
  return {
    method: 'GET',
    url: '/v2/logout',
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      const params = pageParams(request, V2_LOGOUT_PARAMS, pageErrors.logout);
      const client = await namedClient(service, request.tenant, params.client_id);
      const target = resolveReturn(service, request.tenant, client, params.returnTo, 'returnTo');
      return finish(service, request, reply, target, client);
    },
  };
}

export function oidcLogoutEndpoint(service: LogoutService): RouteOptions {
  return {
    method: ['GET', 'POST'],
    url: '/oidc/logout',
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      let hint: IdTokenHint | undefined;
      const params = pageParams(request, OIDC_LOGOUT_PARAMS, pageErrors.logout);
      if (params.id_token_hint !== undefined) {
        hint = await service.verifyIdTokenHint(request.tenant, params.id_token_hint);
        if (params.client_id !== undefined && params.client_id !== hint.clientId) {
          throw pageErrors.logout('The client_id does not match the audience of the id_token_hint.');
        }
        if (params.logout_hint !== undefined && hint.sid !== undefined && params.logout_hint !== hint.sid) {
          throw pageErrors.logout('The logout_hint does not match the session of the id_token_hint.');
        }
      }
      const clientId = hint?.clientId ?? params.client_id;
      const client = await namedClient(service, request.tenant, clientId);
      // The first-URL fallback applies only to a client named by client_id, as the service documents it.
      const uri = params.post_logout_redirect_uri;
      let target = uri === undefined && params.client_id === undefined ? undefined : resolveReturn(service, request.tenant, client, uri, 'post_logout_redirect_uri');
      if (target !== undefined && params.state !== undefined) {
        const url = new URL(target);
        url.searchParams.set('state', params.state);
        target = url.href;
      }
      // RP-Initiated Logout 1.0 §2: the OP asks the user unless an id_token_hint names this very
      // session (its user, and its sid when the hint has one); a hint of another user or an older
      // session ends nothing by itself.
      const session = await service.session(request.tenant, request.headers.cookie);
      if (session && !hintNamesSession(hint, session)) {
        const confirmed = request.method === 'POST' && params.confirm === 'yes' && service.csrfMatches(request.tenant, session, params.csrf_token);
        if (!confirmed) {
          const fields: Record<string, string> = {};
          for (const name of ['id_token_hint', 'client_id', 'post_logout_redirect_uri', 'state', 'logout_hint', 'ui_locales'] as const) {
            if (params[name] !== undefined) fields[name] = params[name];
          }
          const redirect = target === undefined ? undefined : cspSourceOf(target);
          return sendPage(reply, 200, confirmLogoutPage(client?.row.name, { ...fields, confirm: 'yes', csrf_token: service.csrfToken(request.tenant, session) }), redirect === undefined ? [] : [redirect]);
        }
      }
      return finish(service, request, reply, target, client);
    },
  };
}
