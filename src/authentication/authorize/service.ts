/**
 * The business rules of /authorize's browser side: login sessions, the
 * authorization request kept server-side while the user logs in, signs up or
 * consents, the login and signup themselves, consent, and the authorization
 * response (code and/or tokens).
 *
 * - The authorization request is stored under the SHA-256 of a random
 *   transaction id, which is what the pages' `state` carries; it lives 10
 *   minutes, is bound to the browser that started it, and is consumed by the
 *   response it leads to, so a page cannot be replayed into a second code nor
 *   completed from another browser.
 * - The pages' CSRF token is an HMAC, under a key derived from the master
 *   key, of the transaction id's hash and this browser's `__Host-gh_browser` value
 *   (./cookies.ts): no storage, bound to the transaction and the browser.
 * - A session is used for a request unless `prompt=login`, the client has
 *   `sso_disabled`, the login is older than `max_age`, or the session's user
 *   is blocked, gone, or of a connection not enabled for the client.
 * - Consent (the hosted consent page) is asked of third-party clients'
 *   users (`is_first_party: false`), and of first-party clients' users for
 *   an API that does not skip consent for them, for scopes they have not
 *   granted to the client for that API yet, and of anyone under
 *   `prompt=consent`; what was granted is kept (src/grants, `/api/v2/grants`).
 * - Codes live 60 seconds (RFC 6749 §4.1.2 recommends at most 10 minutes)
 *   and are single use (src/storage/kysely/authorize-artefacts.ts).
 */
import type { IssuanceClient } from '../../domain/issuance/lookups.js';
import type { ConnectionRow } from '../../domain/connections/model.js';
import { FormTokens } from '../../platform/crypto/form-tokens.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { userinfoAudience } from '../../domain/tokens/userinfo-token.js';
import { verifyUserPassword } from '../../domain/users/login.js';
import type { UserRow } from '../../domain/users/model.js';
import type { LoginAttemptKey } from '../../domain/brute-force.js';
import { DbConnectionsError, PasswordStrengthError } from '../dbconnections/errors.js';
import type { DbConnectionsService } from '../dbconnections/service.js';
import { ruleSentences } from '../dbconnections/password-policy.js';
import { issueFrontChannelTokens, scopesToGrant } from '../token/user-tokens.js';
import { lifetimeOf } from '../../domain/lifetimes.js';
import { readCookie, SESSION_COOKIE, sessionCookie } from './cookies.js';
import type { AuthorizeRequest } from './request.js';
import { type SessionRow } from '../../domain/rows.js';
import { newSecret, secretHash } from '../../domain/secrets.js';
import type { AppContext } from '../../domain/context.js';


const DATABASE_STRATEGY = 'auth0';

const iso = (ms: number) => new Date(ms).toISOString();

/** A waiting authorization request and its client. */
export interface Transaction {
  id: string;
  request: AuthorizeRequest;
  client: IssuanceClient;
}

/** A logged-in user and the session that carries the login. */
export interface Authenticated {
  user: UserRow;
  session: SessionRow;
}

export type FormOutcome =
  | { kind: 'authenticated'; transaction: Transaction; authenticated: Authenticated; cookie: string }
  | { kind: 'invalid_transaction' }
  | { kind: 'bad_csrf' }
  | { kind: 'refused'; transaction: Transaction; message: string; field?: string };

/** What the consent page asks for: the API (or /userinfo) and the scopes. */
export interface ConsentRequest {
  audience: string;
  scopes: string[];
}

/** How the consent page describes the OpenID Connect scopes. */
const OIDC_SCOPE_DESCRIPTIONS: Readonly<Record<string, string>> = {
  openid: 'your user identifier',
  profile: 'your profile: name, nickname and picture',
  email: 'your email address and whether it is verified',
  offline_access: 'access to the data above while you are not using the application',
};

export interface SignupFields {
  email: string;
  username?: string;
  password: string;
}

export class AuthorizeService {
  #csrf: FormTokens | undefined;

  constructor(
    private readonly ctx: AppContext,
    private readonly dbconnections: DbConnectionsService,
  ) {}

  client(tenant: Tenant, clientId: string): Promise<IssuanceClient | undefined> {
    return this.ctx.lookups.client(tenant.id, clientId);
  }

  async apiExists(tenant: Tenant, audience: string): Promise<boolean> {
    return (await this.ctx.lookups.resourceServer(tenant.id, audience)) !== undefined;
  }

  /** The active session of the `__Host-gh_session` cookie in this Cookie header, if any. */
  async session(tenant: Tenant, cookieHeader: string | undefined): Promise<SessionRow | undefined> {
    const value = readCookie(cookieHeader, SESSION_COOKIE);
    if (!value || value.length > 100) return undefined;
    return this.ctx.stores.sessions.findActive(tenant.id, secretHash(value), iso(this.ctx.now()));
  }

  /** The session's login when it may answer this request without a new one (see the file comment). */
  async usableSession(tenant: Tenant, client: IssuanceClient, request: AuthorizeRequest, cookieHeader: string | undefined): Promise<Authenticated | undefined> {
    if (request.prompt === 'login' || client.browser.ssoDisabled) return undefined;
    const session = await this.session(tenant, cookieHeader);
    if (!session) return undefined;
    if (request.max_age !== undefined && Math.floor(this.ctx.now() / 1000) - session.auth_time > request.max_age) return undefined;
    const user = await this.ctx.stores.users.get(tenant.id, session.user_id);
    if (!user || user.blocked === 1) return undefined;
    const enabled = await this.enabledConnections(tenant, client);
    const allowed = request.connection === undefined ? enabled : enabled.filter((c) => c.name === request.connection);
    if (!allowed.some((c) => c.id === user.connection_id)) return undefined;
    return { user, session };
  }

  /**
   * Keeps the request while the user logs in, bound to the browser that made
   * it (its `__Host-gh_browser` value); returns the transaction id the pages
   * carry as `state`.
   */
  async startTransaction(tenant: Tenant, request: AuthorizeRequest, browser: string): Promise<string> {
    const id = newSecret();
    const now = this.ctx.now();
    await this.ctx.stores.authorizeTransactions.insert({
      tenant_id: tenant.id,
      id_hash: secretHash(id),
      client_id: request.client_id,
      params: JSON.stringify(request),
      created_at: iso(now),
      expires_at: iso(now + lifetimeOf(tenant, 'authorize_transaction') * 1000),
      browser_hash: secretHash(browser),
    });
    return id;
  }

  /**
   * The waiting request and its client, when the transaction is usable from
   * this browser: a transaction id (the pages' `state`) that reached another
   * browser (a shared link, a login CSRF) opens nothing there.
   */
  async transaction(tenant: Tenant, id: string | undefined, browser: string | undefined): Promise<Transaction | undefined> {
    if (id === undefined || id.length === 0 || id.length > 100 || browser === undefined) return undefined;
    const row = await this.ctx.stores.authorizeTransactions.findUsable(tenant.id, secretHash(id), iso(this.ctx.now()));
    if (!row || row.browser_hash !== secretHash(browser)) return undefined;
    const client = await this.client(tenant, row.client_id);
    return client && { id, request: JSON.parse(row.params) as AuthorizeRequest, client };
  }

  /** Spends the transaction: of two concurrent submissions only one gets true. */
  consumeTransaction(tenant: Tenant, id: string): Promise<boolean> {
    return this.ctx.stores.authorizeTransactions.consume(tenant.id, secretHash(id), iso(this.ctx.now()));
  }

  private get csrf(): FormTokens {
    this.#csrf ??= this.ctx.formTokens('gatehouse login csrf');
    return this.#csrf;
  }

  csrfToken(tenant: Tenant, transactionId: string, browser: string): string {
    return this.csrf.token(tenant.id, secretHash(transactionId), browser);
  }

  csrfMatches(tenant: Tenant, transactionId: string, browser: string | undefined, given: string | undefined): boolean {
    return browser !== undefined && this.csrf.matches(given, tenant.id, secretHash(transactionId), browser);
  }

  private async enabledConnections(tenant: Tenant, client: IssuanceClient): Promise<ConnectionRow[]> {
    return (await this.ctx.stores.connections.enabledForClient(tenant.id, client.row.client_id)).filter((c) => c.strategy === DATABASE_STRATEGY);
  }

  /** The `connection` parameter's database connection, else the client's only one; undefined when neither. */
  async connection(tenant: Tenant, client: IssuanceClient, name: string | undefined): Promise<ConnectionRow | undefined> {
    const enabled = await this.enabledConnections(tenant, client);
    if (name !== undefined) return enabled.find((c) => c.name === name);
    return enabled.length === 1 ? enabled[0] : undefined;
  }

  /** What the login and signup pages need of the transaction's connection: usernames, and whether signup is open. */
  async connectionSettings(tenant: Tenant, transaction: Transaction): Promise<{ usernames: boolean; signup: boolean }> {
    const connection = await this.connection(tenant, transaction.client, transaction.request.connection);
    let options: { requires_username?: unknown; disable_signup?: unknown } = {};
    try {
      options = connection ? (JSON.parse(connection.options) as typeof options) : {};
    } catch {
      // A damaged options column reads as no options.
    }
    return { usernames: options.requires_username === true, signup: connection !== undefined && options.disable_signup !== true };
  }

  /** The CSRF token and transaction of a page's form post, checked in that order. */
  private async formTransaction(tenant: Tenant, transactionId: string, browser: string | undefined, csrf: string | undefined): Promise<Transaction | FormOutcome> {
    if (!this.csrfMatches(tenant, transactionId, browser, csrf)) return { kind: 'bad_csrf' };
    return (await this.transaction(tenant, transactionId, browser)) ?? { kind: 'invalid_transaction' };
  }

  /** POST /login: CSRF, transaction, connection, brute force, password, blocked user; then a new session. */
  async login(tenant: Tenant, transactionId: string, browser: string | undefined, csrf: string | undefined, identifier: string, password: string, ip: string): Promise<FormOutcome> {
    const transaction = await this.formTransaction(tenant, transactionId, browser, csrf);
    if ('kind' in transaction) return transaction;
    const refused = (message: string): FormOutcome => ({ kind: 'refused', transaction, message });

    const connection = await this.connection(tenant, transaction.client, transaction.request.connection);
    if (!connection) return refused('No database connection is available to log in to this application.');
    const attempt: LoginAttemptKey = { tenantId: tenant.id, connection: connection.name, identifier, ip };
    if (await this.ctx.bruteForce.isBlocked(attempt)) {
      return refused('Your account has been blocked after multiple consecutive login attempts.');
    }
    const users = this.ctx.stores.users;
    const user = await verifyUserPassword(users, tenant.id, connection.id, identifier, password);
    if (!user) {
      await this.ctx.bruteForce.recordFailure(attempt);
      return refused('Wrong email or password.');
    }
    await this.ctx.bruteForce.recordSuccess(attempt);
    if (user.blocked === 1) return refused('This user is blocked.');
    return this.authenticated(tenant, transaction, user);
  }

  /** POST /signup: CSRF, transaction, connection; the user is created as /dbconnections/signup does, then logged in. */
  async signup(tenant: Tenant, transactionId: string, browser: string | undefined, csrf: string | undefined, fields: SignupFields): Promise<FormOutcome> {
    const transaction = await this.formTransaction(tenant, transactionId, browser, csrf);
    if ('kind' in transaction) return transaction;
    const connection = await this.connection(tenant, transaction.client, transaction.request.connection);
    if (!connection) return { kind: 'refused', transaction, message: 'No database connection is available to sign up to this application.' };
    let userId: string;
    try {
      const created = await this.dbconnections.signup(tenant, {
        client_id: transaction.client.row.client_id,
        connection: connection.name,
        email: fields.email,
        password: fields.password,
        ...(fields.username !== undefined && { username: fields.username }),
      });
      userId = `auth0|${created._id}`;
    } catch (error) {
      if (error instanceof PasswordStrengthError) {
        const unmet = ruleSentences(error.result)
          .filter((rule) => !rule.verified)
          .map((rule) => (rule.items.length > 0 ? `${rule.text} ${rule.items.map((i) => i.message).join(', ')}.` : `${rule.text}.`));
        return { kind: 'refused', transaction, field: 'password', message: `Your password is too weak. ${unmet.join(' ')}`.trim() };
      }
      if (error instanceof DbConnectionsError) {
        const message = error.code === 'user_exists' ? 'An account with this email or username already exists. Log in instead.' : error.description;
        return { kind: 'refused', transaction, field: error.code === 'invalid_parameter' ? 'username' : 'email', message };
      }
      throw error;
    }
    const user = await this.ctx.stores.users.get(tenant.id, userId);
    if (!user) return { kind: 'invalid_transaction' };
    return this.authenticated(tenant, transaction, user);
  }

  /** POST /forgot-password: CSRF, transaction, connection; then the reset mail, as /dbconnections/change_password sends it. */
  async forgotPassword(tenant: Tenant, transactionId: string, browser: string | undefined, csrf: string | undefined, email: string): Promise<FormOutcome | { kind: 'sent'; transaction: Transaction }> {
    const transaction = await this.formTransaction(tenant, transactionId, browser, csrf);
    if ('kind' in transaction) return transaction;
    const connection = await this.connection(tenant, transaction.client, transaction.request.connection);
    if (!connection) return { kind: 'refused', transaction, message: 'No database connection is available for this application.' };
    await this.dbconnections.changePassword(tenant, { client_id: transaction.client.row.client_id, email, connection: connection.name });
    return { kind: 'sent', transaction };
  }

  private async authenticated(tenant: Tenant, transaction: Transaction, user: UserRow): Promise<FormOutcome> {
    await this.recordLogin(tenant, user);
    const { session, cookie } = await this.createSession(tenant, user);
    return { kind: 'authenticated', transaction, authenticated: { user, session }, cookie };
  }

  /** last_login and logins_count, as the password grant records them. */
  private async recordLogin(tenant: Tenant, user: UserRow): Promise<void> {
    const now = iso(this.ctx.now());
    await this.ctx.stores.users.update(tenant.id, user.user_id, { last_login: now, logins_count: user.logins_count + 1 });
  }

  private async createSession(tenant: Tenant, user: UserRow): Promise<{ session: SessionRow; cookie: string }> {
    const value = newSecret();
    const now = this.ctx.now();
    const session: SessionRow = {
      tenant_id: tenant.id,
      id_hash: secretHash(value),
      user_id: user.user_id,
      auth_time: Math.floor(now / 1000),
      created_at: iso(now),
      expires_at: iso(now + lifetimeOf(tenant, 'session') * 1000),
      revoked_at: null,
    };
    await this.ctx.stores.sessions.insert(session);
    return { session, cookie: sessionCookie(value, lifetimeOf(tenant, 'session')) };
  }

  /** What consent the request still needs from the user; undefined when none. Throws the token layer's OAuthError for an unknown audience. */
  async consentNeeded(tenant: Tenant, client: IssuanceClient, request: AuthorizeRequest, userId: string): Promise<ConsentRequest | undefined> {
    if (client.browser.firstParty && request.prompt !== 'consent' && (await this.firstPartySkipsConsent(tenant, request))) return undefined;
    const wanted = await this.wantedConsent(tenant, client, request, userId);
    if (request.prompt === 'consent') return wanted;
    const granted = await this.ctx.stores.consentGrants.scopesFor(tenant.id, userId, client.row.client_id, wanted.audience);
    return granted !== undefined && wanted.scopes.every((s) => granted.includes(s)) ? undefined : wanted;
  }

  /**
   * First-party clients skip consent unless the request is for an API whose
   * `skip_consent_for_verifiable_first_party_clients` is false (OpenID
   * Connect scopes alone never ask them). The service also asks first-party
   * clients on `localhost` callbacks, which it cannot verify; Gatehouse does
   * not, so local development and CI run without the extra page.
   */
  private async firstPartySkipsConsent(tenant: Tenant, request: AuthorizeRequest): Promise<boolean> {
    const audience = request.audience ?? tenant.settings.default_audience;
    if (!audience) return true;
    const api = await this.ctx.lookups.resourceServer(tenant.id, audience);
    return api === undefined || api.row.skip_consent_for_verifiable_first_party_clients === 1;
  }

  /** Every scope the request would be granted, keyed by its API (the /userinfo audience for OpenID Connect scopes alone). */
  async wantedConsent(tenant: Tenant, client: IssuanceClient, request: AuthorizeRequest, userId: string): Promise<ConsentRequest> {
    const wanted = await scopesToGrant(this.ctx, { tenant, client, audience: request.audience, scope: request.scope, userId });
    return { audience: wanted.audience ?? userinfoAudience(tenant), scopes: wanted.scopes };
  }

  /** What the consent page lists: the API's name and every scope asked for, with its description. */
  async consentView(tenant: Tenant, client: IssuanceClient, request: AuthorizeRequest, userId: string): Promise<{ apiName?: string; scopes: { value: string; description: string }[] }> {
    const wanted = await scopesToGrant(this.ctx, { tenant, client, audience: request.audience, scope: request.scope, userId });
    const api = wanted.audience === undefined ? undefined : await this.ctx.lookups.resourceServer(tenant.id, wanted.audience);
    const described = new Map<string, string>(Object.entries(OIDC_SCOPE_DESCRIPTIONS));
    if (api) for (const s of JSON.parse(api.row.scopes) as { value: string; description?: string }[]) described.set(s.value, s.description ?? '');
    return { ...(api && { apiName: api.row.name }), scopes: wanted.scopes.map((value) => ({ value, description: described.get(value) ?? '' })) };
  }

  async recordConsent(tenant: Tenant, client: IssuanceClient, userId: string, consent: ConsentRequest): Promise<void> {
    await this.ctx.stores.consentGrants.grant(tenant.id, userId, client.row.client_id, consent.audience, consent.scopes, iso(this.ctx.now()));
  }

  /** The user of the session that may consent to this transaction. */
  async sessionUser(tenant: Tenant, cookieHeader: string | undefined): Promise<Authenticated | undefined> {
    const session = await this.session(tenant, cookieHeader);
    if (!session) return undefined;
    const user = await this.ctx.stores.users.get(tenant.id, session.user_id);
    return user && user.blocked !== 1 ? { user, session } : undefined;
  }

  /**
   * The authorization response's parameters for the logged-in user: a code
   * when `code` was asked for, tokens when `token` or `id_token` were
   * (src/authentication/token/user-tokens.ts).
   */
  async authorizationResponse(tenant: Tenant, client: IssuanceClient, request: AuthorizeRequest, { user, session }: Authenticated): Promise<Record<string, string>> {
    const parts = new Set(request.response_type);
    const response: Record<string, string> = {};
    if (parts.has('code')) response.code = await this.issueCode(tenant, request, user.user_id, session);
    if (parts.has('token') || parts.has('id_token')) {
      Object.assign(
        response,
        await issueFrontChannelTokens(
          this.ctx,
          {
            tenant,
            client,
            user,
            audience: request.audience,
            scope: request.scope,
            ...(request.nonce !== undefined && { nonce: request.nonce }),
            authTime: session.auth_time,
            sid: session.id_hash,
          },
          { accessToken: parts.has('token'), idToken: parts.has('id_token'), ...(response.code !== undefined && { code: response.code }) },
        ),
      );
    }
    return response;
  }

  /** A new code for the request, bound to the user and session; only its hash is stored. */
  private async issueCode(tenant: Tenant, request: AuthorizeRequest, userId: string, session: SessionRow): Promise<string> {
    const code = newSecret();
    await this.ctx.stores.authorizationCodes.insert({
      tenant_id: tenant.id,
      code_hash: secretHash(code),
      client_id: request.client_id,
      user_id: userId,
      redirect_uri: request.redirect_uri ?? null,
      scope: request.scope ?? null,
      audience: request.audience ?? null,
      nonce: request.nonce ?? null,
      code_challenge: request.code_challenge ?? null,
      code_challenge_method: request.code_challenge_method ?? null,
      session_id: session.id_hash,
      auth_time: session.auth_time,
      expires_at: iso(this.ctx.now() + lifetimeOf(tenant, 'authorization_code') * 1000),
    });
    return code;
  }
}
