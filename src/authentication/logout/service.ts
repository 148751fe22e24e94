/**
 * The rules of logout (authentication-api-wire-notes §9): where the browser
 * may be sent afterwards, the `id_token_hint` of RP-Initiated Logout, and the
 * end of the SSO session.
 *
 * - A return URL is allowed when, with its query string removed, it matches
 *   one of the Allowed Logout URLs under the rules of callbacks (exact, or one
 *   DNS label for a leading `*.`): the client's when a client is named, else
 *   the tenant's (`TenantSettings.allowed_logout_urls`).
 * - An `id_token_hint` must be a JWT signed by one of the tenant's keys with
 *   the tenant's issuer; an expired one is accepted (OIDC RP-Initiated Logout
 *   1.0 §2: the OP should accept it), since logging out is what it asks for.
 * - Ending the session revokes the `__Host-gh_session` cookie's session in the store;
 *   the cookie itself is cleared by the caller.
 */
import type { IssuanceClient, IssuanceLookups } from '../../domain/issuance/lookups.js';
import { FormTokens } from '../../platform/crypto/form-tokens.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { readCookie, SESSION_COOKIE } from '../cookies.js';
import { pageErrors } from '../errors.js';
import { callbackMatches } from '../authorize/request.js';
import { type SessionRow } from '../../domain/rows.js';
import { secretHash } from '../../domain/secrets.js';
import { isoAt } from '../../platform/clock.js';
import { verifyTenantJwt } from '../../domain/tokens/verify.js';
import { announceSessionsEnded, type SessionsEndedAnnouncing } from '../../domain/backchannel-logout/announce.js';
import type { SessionStore } from '../../domain/sessions/store.js';
import type { SamlLogoutContext } from '../samlp/logout.js';
import type { TenantLogContext } from '../tenant-log.js';


/** What a verified `id_token_hint` tells: the client (its `aud`), and `sid`/`sub` when present. */
export interface IdTokenHint {
  clientId: string;
  sid?: string;
  sub?: string;
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** Whether `url`, its query string (and what follows) ignored, matches one of `allowed`. */
export function logoutUrlAllowed(allowed: readonly string[], url: string): boolean {
  if (!URL.canParse(url)) return false;
  const query = url.indexOf('?');
  const compared = query === -1 ? url : url.slice(0, query);
  return allowed.some((entry) => callbackMatches(entry, compared));
}

/** What logout touches. */
export interface LogoutContext extends SessionsEndedAnnouncing, SamlLogoutContext, TenantLogContext {
  formTokens(purpose: string): FormTokens;
  readonly lookups: IssuanceLookups;
  readonly now: () => number;
  readonly stores: SessionsEndedAnnouncing['stores'] & SamlLogoutContext['stores'] & { readonly sessions: SessionStore };
}

export class LogoutService {
  #csrf: FormTokens | undefined;

  constructor(readonly ctx: LogoutContext) {}

  /**
   * The logout confirmation form's CSRF token: an HMAC of the session's hash
   * under a key derived from the master key, so only a page this server
   * showed to the session's own browser can confirm its logout.
   */
  csrfToken(tenant: Tenant, session: SessionRow): string {
    return this.csrf.token(tenant.id, session.id_hash);
  }

  csrfMatches(tenant: Tenant, session: SessionRow, given: string | undefined): boolean {
    return this.csrf.matches(given, tenant.id, session.id_hash);
  }

  private get csrf(): FormTokens {
    this.#csrf ??= this.ctx.formTokens('gatehouse logout csrf');
    return this.#csrf;
  }

  client(tenant: Tenant, clientId: string): Promise<IssuanceClient | undefined> {
    return this.ctx.lookups.client(tenant.id, clientId);
  }

  /** The Allowed Logout URLs in force: the client's when one is named, else the tenant's. */
  allowedUrls(tenant: Tenant, client: IssuanceClient | undefined): string[] {
    return client ? [...client.browser.allowedLogoutUrls] : stringList(tenant.settings.allowed_logout_urls);
  }

  /** The verified hint; else the logout error page (PageError). */
  async verifyIdTokenHint(tenant: Tenant, token: string): Promise<IdTokenHint> {
    // An expired hint is accepted (it only names the session), one that never expires is not an ID token of ours.
    const verified = await verifyTenantJwt(this.ctx, tenant, token, 'id_token_hint');
    if (!verified.ok) throw pageErrors.logout('Invalid id_token_hint.');
    const { payload } = verified;
    const aud = Array.isArray(payload.aud) && payload.aud.length === 1 ? payload.aud[0] : payload.aud;
    if (typeof aud !== 'string') throw pageErrors.logout('Invalid id_token_hint.');
    return {
      clientId: aud,
      ...(typeof payload.sid === 'string' && { sid: payload.sid }),
      ...(typeof payload.sub === 'string' && { sub: payload.sub }),
    };
  }

  /** The active session of the cookie, if any. */
  async session(tenant: Tenant, cookieHeader: string | undefined): Promise<SessionRow | undefined> {
    const value = readCookie(cookieHeader, SESSION_COOKIE);
    if (!value || value.length > 100) return undefined;
    return this.ctx.stores.sessions.findActive(tenant.id, secretHash(value), isoAt(this.ctx.now()));
  }

  /**
   * Revokes the session and queues the back-channel logout of the clients it
   * issued tokens to (`rp-logout`); a session already gone is not an error.
   */
  async endSession(tenant: Tenant, session: SessionRow | undefined): Promise<void> {
    if (!session) return;
    await this.ctx.stores.sessions.revoke(tenant.id, session.id_hash, isoAt(this.ctx.now()));
    await announceSessionsEnded(this.ctx, tenant.id, [session], 'rp-logout');
  }
}
