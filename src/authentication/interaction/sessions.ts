/**
 * Login sessions (SSO): the `__Host-gh_session` cookie's session, whether it
 * may answer an authorization request without a new login, and starting one.
 *
 * A session is used for a request unless `prompt=login`, the client has
 * `sso_disabled`, the login is older than `max_age` (OIDC Core §3.1.2.1), or
 * the session's user is blocked, gone, or of a connection not enabled for
 * the client (or not the one the request names).
 *
 * Its lifetimes are the tenant's (src/domain/sessions/policy.ts): checked
 * with the settings of the moment each time the cookie is read, so a
 * shortened lifetime ends sessions already running; each use for a login
 * moves its idle end.
 */
import { ENTITY_LIMITS } from '../../domain/entity-limits.js';
import { announceSessionsEnded, type SessionsEndedAnnouncing } from '../../domain/backchannel-logout/announce.js';
import type { FastifyReply } from 'fastify';
import type { ConnectionRow } from '../../domain/connections/model.js';
import type { IssuanceClient } from '../../domain/issuance/lookups.js';
import { sessionEnd, sessionPolicy } from '../../domain/sessions/policy.js';
import type { SessionRow, UserRow } from '../../domain/rows.js';
import { newSecret, secretHash } from '../../domain/secrets.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { isoAt } from '../../platform/clock.js';
import type { AuthorizeRequest } from '../authorize/request.js';
import { appendCookie, readCookie, SESSION_COOKIE, sessionCookie } from '../cookies.js';
import { isActive } from '../../domain/users/active-user.js';
import type { ConnectionStore } from '../../domain/connections/store.js';
import type { SessionStore } from '../../domain/sessions/store.js';
import type { UserStore } from '../../domain/users/store.js';
import { loginConnections } from '../../domain/issuance/token-policy.js';

/** A logged-in user and the session that carries the login. */
export interface Authenticated {
  user: UserRow;
  session: SessionRow;
}

const DATABASE_STRATEGY = 'auth0';
/** The connections whose logins a session carries: database, SAML enterprise and passwordless connections. */
const SESSION_STRATEGIES: readonly string[] = [DATABASE_STRATEGY, 'samlp', 'email', 'sms'];

/** What finding and keeping login sessions touches. */
export interface LoginSessionContext extends SessionsEndedAnnouncing {
  readonly now: () => number;
  readonly stores: SessionsEndedAnnouncing['stores'] & { readonly connections: ConnectionStore; readonly sessions: SessionStore; readonly users: UserStore };
}

export class Sessions {
  constructor(private readonly ctx: LoginSessionContext) {}

  /** The active session of the session cookie in this Cookie header, if any. */
  async current(tenant: Tenant, cookieHeader: string | undefined): Promise<SessionRow | undefined> {
    const value = readCookie(cookieHeader, SESSION_COOKIE);
    if (!value || value.length > 100) return undefined;
    const now = this.ctx.now();
    const session = await this.ctx.stores.sessions.findActive(tenant.id, secretHash(value), isoAt(now));
    if (!session) return undefined;
    const lastUsed = Date.parse(session.last_interacted_at ?? session.created_at);
    return now < sessionEnd(sessionPolicy(tenant), Date.parse(session.created_at), lastUsed) ? session : undefined;
  }

  /** The session's user, while not blocked: who is logged in in this browser. */
  async user(tenant: Tenant, cookieHeader: string | undefined): Promise<Authenticated | undefined> {
    const session = await this.current(tenant, cookieHeader);
    if (!session) return undefined;
    const user = await this.ctx.stores.users.get(tenant.id, session.user_id);
    return isActive(user) ? { user, session } : undefined;
  }

  /** The session's login when it may answer this request without a new one (see the file comment). */
  async usable(tenant: Tenant, client: IssuanceClient, request: AuthorizeRequest, cookieHeader: string | undefined): Promise<Authenticated | undefined> {
    if (request.prompt === 'login' || client.browser.ssoDisabled) return undefined;
    const authenticated = await this.user(tenant, cookieHeader);
    if (!authenticated) return undefined;
    if (request.max_age !== undefined && Math.floor(this.ctx.now() / 1000) - authenticated.session.auth_time > request.max_age) return undefined;
    const enabled = (await loginConnections(this.ctx.stores.connections, tenant.id, client.row.client_id)).filter((c) => SESSION_STRATEGIES.includes(c.strategy));
    const allowed = request.connection === undefined ? enabled : enabled.filter((c) => c.name === request.connection);
    if (!allowed.some((c) => c.id === authenticated.user.connection_id)) return undefined;
    await this.#touch(tenant, authenticated.session);
    return authenticated;
  }

  /** A use of the session for a login: its idle end moves (never past its absolute end). */
  async #touch(tenant: Tenant, session: SessionRow): Promise<void> {
    const now = this.ctx.now();
    const end = sessionEnd(sessionPolicy(tenant), Date.parse(session.created_at), now);
    await this.ctx.stores.sessions.touch(tenant.id, session.id_hash, isoAt(now), isoAt(end));
  }

  /** The database connections enabled for the client. */
  async enabledConnections(tenant: Tenant, client: IssuanceClient): Promise<ConnectionRow[]> {
    return (await loginConnections(this.ctx.stores.connections, tenant.id, client.row.client_id)).filter((c) => c.strategy === DATABASE_STRATEGY);
  }

  /** Records the login (last_login, logins_count, as the password grant does), starts a session and sets its cookie. */
  async start(tenant: Tenant, user: UserRow, reply: FastifyReply): Promise<Authenticated> {
    const now = this.ctx.now();
    await this.ctx.stores.users.update(tenant.id, user.user_id, { last_login: isoAt(now), logins_count: user.logins_count + 1 });
    const value = newSecret();
    const policy = sessionPolicy(tenant);
    const session: SessionRow = {
      tenant_id: tenant.id,
      id_hash: secretHash(value),
      user_id: user.user_id,
      auth_time: Math.floor(now / 1000),
      created_at: isoAt(now),
      expires_at: isoAt(sessionEnd(policy, now, now)),
      revoked_at: null,
      amr: null,
      last_interacted_at: null,
    };
    await this.ctx.stores.sessions.insert(session);
    // At most ENTITY_LIMITS.sessionsPerUser active sessions per user (Gatehouse's number): the oldest beyond end.
    const ended = await this.ctx.stores.sessions.revokeBeyond(tenant.id, user.user_id, ENTITY_LIMITS.sessionsPerUser, isoAt(now));
    await announceSessionsEnded(this.ctx, tenant.id, ended, 'session-revoked');
    appendCookie(reply, sessionCookie(value, policy.persistent ? policy.absoluteSeconds : undefined));
    return { user, session };
  }
}
