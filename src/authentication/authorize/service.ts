/**
 * The business rules of the authorization code flow's browser side: login
 * sessions (cookie `gh_session`), the authorization request kept server-side
 * while the user logs in, the login itself, and code issuance.
 *
 * - The session cookie is 256 random bits; only its SHA-256 is stored. It is
 *   Secure, HttpOnly, SameSite=Lax (sent on the top-level GET /authorize
 *   navigation from the client's site, not on cross-site POSTs), Path=/.
 * - The authorization request is stored under the SHA-256 of a random
 *   transaction id, which is what /login?state= carries; it lives 10 minutes
 *   and is consumed by the successful login, so a login page cannot be
 *   replayed into a second code.
 * - The login form's CSRF token is an HMAC of the transaction id's hash under
 *   a key derived from the master key (as the reset-password page does): no
 *   storage, bound to the transaction, not computable by another site.
 * - Codes live 60 seconds (RFC 6749 §4.1.2 recommends at most 10 minutes)
 *   and are single use (src/authorization/store.ts).
 */
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import type { IssuanceClient } from '../../cache/issuance.js';
import type { ConnectionRow } from '../../connections/model.js';
import { KyselyConnectionStore } from '../../connections/store.js';
import type { AppContext } from '../../context.js';
import { loadMasterKey } from '../../crypto/master-key.js';
import {
  KyselyAuthorizationCodeStore,
  KyselyAuthorizationRequestStore,
  KyselySessionStore,
  newSecret,
  secretHash,
  type SessionRow,
} from '../../authorization/store.js';
import type { Tenant } from '../../tenants/tenant.js';
import { verifyUserPassword } from '../../users/login.js';
import type { UserRow } from '../../users/model.js';
import { KyselyUserStore } from '../../users/store.js';
import type { LoginAttemptKey } from '../brute-force.js';
import type { AuthorizeRequest } from './request.js';

export const SESSION_COOKIE = 'gh_session';
/** Seconds a login session lasts (the service's default absolute session lifetime is longer; three days is its idle default). */
export const SESSION_LIFETIME_SECONDS = 3 * 24 * 3600;
/** Seconds an authorization request waits for its login. */
export const TRANSACTION_LIFETIME_SECONDS = 600;
/** Seconds an authorization code may be exchanged. */
export const CODE_LIFETIME_SECONDS = 60;

const DATABASE_STRATEGY = 'auth0';

const iso = (ms: number) => new Date(ms).toISOString();

/** The value of one cookie in a Cookie header (RFC 6265 §5.4), or undefined. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export function sessionCookie(value: string): string {
  return `${SESSION_COOKIE}=${value}; Path=/; Max-Age=${SESSION_LIFETIME_SECONDS}; Secure; HttpOnly; SameSite=Lax`;
}

/** Removes the session cookie: the same attributes, an empty value, Max-Age=0 (RFC 6265 §5.3 step 3). */
export function clearedSessionCookie(): string {
  return `${SESSION_COOKIE}=; Path=/; Max-Age=0; Secure; HttpOnly; SameSite=Lax`;
}

export type LoginOutcome =
  | { kind: 'done'; request: AuthorizeRequest; code: string; cookie: string }
  | { kind: 'invalid_transaction' }
  | { kind: 'bad_csrf' }
  | { kind: 'refused'; client: IssuanceClient; message: string };

export class AuthorizeService {
  #csrfKey: Buffer | undefined;

  constructor(private readonly ctx: AppContext) {}

  client(tenant: Tenant, clientId: string): Promise<IssuanceClient | undefined> {
    return this.ctx.lookups.client(tenant.id, clientId);
  }

  /** The active session of the `gh_session` cookie in this Cookie header, if any. */
  async session(tenant: Tenant, cookieHeader: string | undefined): Promise<SessionRow | undefined> {
    const value = readCookie(cookieHeader, SESSION_COOKIE);
    if (!value || value.length > 100) return undefined;
    return new KyselySessionStore(this.ctx.database.db).findActive(tenant.id, secretHash(value), iso(this.ctx.now()));
  }

  /** Keeps the request while the user logs in; returns the transaction id for /login?state=. */
  async startTransaction(tenant: Tenant, request: AuthorizeRequest): Promise<string> {
    const id = newSecret();
    const now = this.ctx.now();
    await new KyselyAuthorizationRequestStore(this.ctx.database.db).insert({
      tenant_id: tenant.id,
      id_hash: secretHash(id),
      client_id: request.client_id,
      params: JSON.stringify(request),
      created_at: iso(now),
      expires_at: iso(now + TRANSACTION_LIFETIME_SECONDS * 1000),
    });
    return id;
  }

  /** The waiting request and its client, when the transaction is usable. */
  async transaction(tenant: Tenant, id: string): Promise<{ request: AuthorizeRequest; client: IssuanceClient } | undefined> {
    if (id.length === 0 || id.length > 100) return undefined;
    const row = await new KyselyAuthorizationRequestStore(this.ctx.database.db).findUsable(tenant.id, secretHash(id), iso(this.ctx.now()));
    if (!row) return undefined;
    const client = await this.client(tenant, row.client_id);
    return client && { request: JSON.parse(row.params) as AuthorizeRequest, client };
  }

  csrfToken(tenant: Tenant, transactionId: string): string {
    this.#csrfKey ??= Buffer.from(
      hkdfSync('sha256', loadMasterKey(this.ctx.config.masterKey, this.ctx.config.dataDir), Buffer.alloc(0), 'gatehouse login csrf', 32),
    );
    return createHmac('sha256', this.#csrfKey).update(`${tenant.id}\u0000${secretHash(transactionId)}`).digest('base64url');
  }

  private csrfMatches(tenant: Tenant, transactionId: string, given: string | undefined): boolean {
    if (!given) return false;
    const expected = Buffer.from(this.csrfToken(tenant, transactionId));
    const actual = Buffer.from(given);
    return actual.length === expected.length && timingSafeEqual(actual, expected);
  }

  /** The `connection` parameter's database connection, else the client's only one; undefined when neither. */
  private async connection(tenant: Tenant, client: IssuanceClient, name: string | undefined): Promise<ConnectionRow | undefined> {
    const enabled = (await new KyselyConnectionStore(this.ctx.database.db).enabledForClient(tenant.id, client.row.client_id)).filter(
      (c) => c.strategy === DATABASE_STRATEGY,
    );
    if (name !== undefined) return enabled.find((c) => c.name === name);
    return enabled.length === 1 ? enabled[0] : undefined;
  }

  /**
   * POST /login: CSRF, transaction, connection, brute force, password,
   * blocked user; then the session, the code, and the transaction consumed.
   */
  async login(tenant: Tenant, transactionId: string, csrf: string | undefined, email: string, password: string, ip: string): Promise<LoginOutcome> {
    if (!this.csrfMatches(tenant, transactionId, csrf)) return { kind: 'bad_csrf' };
    const found = await this.transaction(tenant, transactionId);
    if (!found) return { kind: 'invalid_transaction' };
    const { request, client } = found;
    const refused = (message: string): LoginOutcome => ({ kind: 'refused', client, message });

    const connection = await this.connection(tenant, client, request.connection);
    if (!connection) return refused('No database connection is available to log in to this application.');
    const attempt: LoginAttemptKey = { tenantId: tenant.id, connection: connection.name, identifier: email, ip };
    if (await this.ctx.bruteForce.isBlocked(attempt)) {
      return refused('Your account has been blocked after multiple consecutive login attempts.');
    }
    const users = new KyselyUserStore(this.ctx.database.db);
    const user = await verifyUserPassword(users, tenant.id, connection.id, email, password);
    if (!user) {
      await this.ctx.bruteForce.recordFailure(attempt);
      return refused('Wrong email or password.');
    }
    await this.ctx.bruteForce.recordSuccess(attempt);
    if (user.blocked === 1) return refused('This user is blocked.');
    // Only one login may turn a transaction into a code.
    if (!(await new KyselyAuthorizationRequestStore(this.ctx.database.db).consume(tenant.id, secretHash(transactionId), iso(this.ctx.now())))) {
      return { kind: 'invalid_transaction' };
    }
    await this.recordLogin(tenant, user);
    const { session, cookie } = await this.createSession(tenant, user);
    const code = await this.issueCode(tenant, request, user.user_id, session);
    return { kind: 'done', request, code, cookie };
  }

  /** last_login and logins_count, as the password grant records them. */
  private async recordLogin(tenant: Tenant, user: UserRow): Promise<void> {
    const now = iso(this.ctx.now());
    await new KyselyUserStore(this.ctx.database.db).update(tenant.id, user.user_id, { last_login: now, logins_count: user.logins_count + 1 });
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
      expires_at: iso(now + SESSION_LIFETIME_SECONDS * 1000),
      revoked_at: null,
    };
    await new KyselySessionStore(this.ctx.database.db).insert(session);
    return { session, cookie: sessionCookie(value) };
  }

  /** A new code for the request, bound to the user and session; only its hash is stored. */
  async issueCode(tenant: Tenant, request: AuthorizeRequest, userId: string, session: SessionRow): Promise<string> {
    const code = newSecret();
    await new KyselyAuthorizationCodeStore(this.ctx.database.db).insert({
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
      expires_at: iso(this.ctx.now() + CODE_LIFETIME_SECONDS * 1000),
    });
    return code;
  }
}
