/**
 * The step every way into an authorization response shares, once a user is
 * logged in (a usable session at /authorize, or a login or signup page):
 * consent when the request needs it (the consent page, or `consent_required`
 * under `prompt=none`), else the transaction is spent and the response sent
 * through the request's response mode.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { IssuanceClient } from '../../domain/issuance/lookups.js';
import { OAuthError } from '../../platform/http/errors.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { sendPage } from '../pages/html.js';
import { browserBinding } from './cookies.js';
import { invalidLoginPage } from '../pages/authorize.js';
import type { AuthorizeRequest } from './request.js';
import { RESPONSE_MODES } from './response-modes.js';
import type { Authenticated, AuthorizeService } from './service.js';

const MAX_FIELD = 1024;

/** A string field of a query or form, at most 1 KiB; undefined otherwise. */
export function field(source: unknown, name: string): string | undefined {
  const value = (source as Record<string, unknown> | null | undefined)?.[name];
  return typeof value === 'string' && value.length <= MAX_FIELD ? value : undefined;
}

/** Sends the authorization response (a code, tokens, or an error) through the request's response mode. */
export function sendAuthorizationResponse(
  reply: FastifyReply,
  request: Pick<AuthorizeRequest, 'redirect_target' | 'response_mode' | 'state'>,
  response: Record<string, string>,
): FastifyReply {
  return RESPONSE_MODES[request.response_mode].send(reply, request.redirect_target, { ...response, state: request.state });
}

/** 302 to one of the hosted pages of a transaction. */
export function redirectToPage(reply: FastifyReply, path: string, transactionId: string): FastifyReply {
  return reply.code(302).header('Location', `${path}?state=${encodeURIComponent(transactionId)}`).header('Cache-Control', 'no-store').send();
}

/** The browser binding of a page's request; sets the cookie when the browser had none. */
export function bindBrowser(request: FastifyRequest, reply: FastifyReply): string {
  const binding = browserBinding(request.headers.cookie);
  if (binding.setCookie) appendCookie(reply, binding.setCookie);
  return binding.value;
}

export function appendCookie(reply: FastifyReply, cookie: string): void {
  const existing = reply.getHeader('set-cookie');
  const list = existing === undefined ? [] : Array.isArray(existing) ? existing.map(String) : [String(existing)];
  reply.header('Set-Cookie', [...list, cookie]);
}

export async function continueAuthorization(
  service: AuthorizeService,
  reply: FastifyReply,
  tenant: Tenant,
  pending: { id?: string; request: AuthorizeRequest; client: IssuanceClient },
  authenticated: Authenticated,
  /** The browser binding the consent page's transaction is bound to. */
  browser: string,
  /** The user has just answered the consent page for this transaction. */
  consented = false,
): Promise<FastifyReply> {
  const { request, client } = pending;
  try {
    const consent = consented ? undefined : await service.consentNeeded(tenant, client, request, authenticated.user.user_id);
    if (consent) {
      if (request.prompt === 'none') return sendAuthorizationResponse(reply, request, { error: 'consent_required', error_description: 'Consent required' });
      return redirectToPage(reply, '/consent', pending.id ?? (await service.startTransaction(tenant, request, browser)));
    }
    if (pending.id !== undefined && !(await service.consumeTransaction(tenant, pending.id))) return sendPage(reply, 400, invalidLoginPage());
    return sendAuthorizationResponse(reply, request, await service.authorizationResponse(tenant, client, request, authenticated));
  } catch (error) {
    // An unknown audience, found while working out the scopes: the token layer's access_denied.
    if (error instanceof OAuthError) return sendAuthorizationResponse(reply, request, { error: error.error, error_description: error.description });
    throw error;
  }
}
