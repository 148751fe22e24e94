/**
 * Business rules of the database-connection endpoints: public signup, the
 * verification email, and password reset by emailed ticket. Storage goes
 * through the user, connection and ticket stores; mail through the mailer.
 */
import { userFromRow } from '../../domain/users/model.js';
import { recordEvent } from '../../domain/event-streams/events.js';
import { sendTenantMail, storedTemplate, userVariables } from '../../domain/email/templates.js';
import type { ConnectionStore } from '../../domain/connections/store.js';
import type { UserStore, UserWithConnection } from '../../domain/users/store.js';
import { changePassword } from '../../domain/users/password-change.js';
import type { RateLimitSetting } from '../../platform/config.js';
import { FormTokens } from '../../platform/crypto/form-tokens.js';
import { hashPassword } from '../../platform/passwords/hashing.js';
import type { RateLimitDecision, RateLimiter } from '../../platform/rate-limit/rate-limiter.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { UserMail, type UserMailContext } from '../../domain/tickets/user-mail.js';
import { userIdPart, type UserRow } from '../../domain/users/model.js';
import { newDatabaseUserRow } from '../../domain/users/new-user.js';
import { CustomDatabaseError, importedByEmail, legacyUser, scriptPasswordChange, scriptSignup, scriptVerify } from '../../domain/users/custom-database.js';
import type { ConnectionRow } from '../../domain/connections/model.js';
import type { ConnectionScripts } from '../../domain/connections/scripts.js';
import type { SecretBox } from '../../platform/crypto/secret-box.js';
import { dbConnectionsErrors, PasswordStrengthError } from './errors.js';
import { checkPassword, type ConnectionPasswordOptions, type PolicyResult } from './password-policy.js';
import { secretHash } from '../../domain/secrets.js';
import { type TicketKind, type TicketStore } from '../../domain/tickets/store.js';
import type { TicketRow } from '../../domain/rows.js';
import { isUniqueViolation } from '../../platform/database-errors.js';
import { isoAt } from '../../platform/clock.js';
import type { FastifyRequest } from 'fastify';
import { logAuthenticationEvent, type TenantLogContext } from '../tenant-log.js';
import { DbConnectionsError } from './errors.js';
import type { IssuanceLookups } from '../../domain/issuance/lookups.js';
import { loginConnections, tokenPolicy } from '../../domain/issuance/token-policy.js';
import type { UnitOfWork } from '../../domain/stores.js';
import { eventRequest, runPostUserRegistration, runPreUserRegistration, type RegistrationActionsContext } from '../actions/registration.js';
import { runPostChangePassword } from '../../domain/actions-runtime/password-changed.js';

const DATABASE_STRATEGY = 'auth0';

/**
 * POST /dbconnections/change_password per (IP, email): the service's published
 * limit, 10 at once then 1 a minute (authentication-api-wire-notes §1.5). In
 * the rate limiter's fixed windows that is 10 per 10 minutes.
 */
export const CHANGE_PASSWORD_RATE_LIMIT: RateLimitSetting = { burst: 10, perSecond: 1 / 60 };

export interface ConnectionOptions extends ConnectionPasswordOptions {
  requires_username?: unknown;
  disable_signup?: unknown;
}

export interface DbConnection {
  id: string;
  name: string;
  options: ConnectionOptions;
  row: ConnectionRow;
}

export interface SignupInput {
  client_id: string;
  connection: string;
  email: string;
  password: string;
  username?: string;
  given_name?: string;
  family_name?: string;
  name?: string;
  nickname?: string;
  picture?: string;
  user_metadata?: Record<string, string>;
}

/** The 200 body of POST /dbconnections/signup: `_id` without the `auth0|` prefix, and only what was given. */
export interface SignupResponse {
  _id: string;
  email: string;
  username?: string;
  email_verified: false;
  given_name?: string;
  family_name?: string;
  name?: string;
  nickname?: string;
  picture?: string;
  user_metadata?: Record<string, string>;
}

export interface ChangePasswordInput {
  client_id?: string;
  email: string;
  connection: string;
}

/** What GET /verify-email shows for a ticket. */
export type VerifyFormState = { usable: true; email: string; csrf: string } | { usable: false };

export type VerifyOutcome =
  | { kind: 'done'; email: string; redirect?: string }
  | { kind: 'invalid_ticket' }
  | { kind: 'bad_csrf' }
  /** A custom database's `verify` script failed: nothing was consumed or changed. */
  | { kind: 'refused'; message: string };

/** HKDF `info` of each page's CSRF key, so a token made for one page never fits the other. */
const CSRF_KEY_INFO: Record<TicketKind, string> = {
  password_reset: 'gatehouse reset-password csrf',
  email_verification: 'gatehouse verify-email csrf',
};

/** What GET /reset-password shows for a ticket. */
export type ResetFormState = { usable: true; email: string; csrf: string; policy: PolicyResult } | { usable: false };

export type ResetOutcome =
  | { kind: 'done'; email: string; redirect?: string }
  | { kind: 'invalid_ticket' }
  | { kind: 'bad_csrf' }
  | { kind: 'mismatch'; email: string; policy: PolicyResult }
  | { kind: 'weak'; email: string; policy: PolicyResult }
  /** A custom database's change_password script refused or failed: the form again with `message`. */
  | { kind: 'refused'; email: string; policy: PolicyResult; message: string };



/** What the database connections' endpoints touch. */
export interface DbConnectionsContext extends UserMailContext, TenantLogContext, RegistrationActionsContext {
  formTokens(purpose: string): FormTokens;
  readonly lookups: IssuanceLookups;
  readonly now: () => number;
  readonly rateLimiter: RateLimiter;
  readonly unitOfWork: UnitOfWork;
  readonly stores: UserMailContext['stores'] & { readonly connections: ConnectionStore; readonly tickets: TicketStore; readonly users: UserStore };
  /** Seals and opens custom database connections' settings. */
  readonly box: SecretBox;
  /** Custom database scripts (`get_user` under import_mode), in the tenant's sandbox processes. */
  readonly scripts: ConnectionScripts;
}

/** Metadata an action set, less the keys it deleted (`null`). */
function withoutNulls(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== null));
}

export class DbConnectionsService {
  readonly #users: UserStore;
  readonly #connections: ConnectionStore;
  readonly #csrf = new Map<TicketKind, FormTokens>();
  readonly #mail: UserMail;

  constructor(private readonly ctx: DbConnectionsContext) {
    this.#mail = new UserMail(ctx);
    this.#users = ctx.stores.users;
    this.#connections = ctx.stores.connections;
  }

  /**
   * The named database connection, enabled for the client (which must exist).
   * Checked in that order, so an unknown client is reported before anything else.
   */
  async connectionFor(tenant: Tenant, clientId: string | undefined, connectionName: string): Promise<DbConnection> {
    if (clientId !== undefined && !(await this.ctx.lookups.client(tenant.id, clientId))) throw dbConnectionsErrors.unknownClient();
    const row = await this.#connections.getByName(tenant.id, connectionName);
    if (!row) throw dbConnectionsErrors.unknownConnection();
    if (row.strategy !== DATABASE_STRATEGY) throw dbConnectionsErrors.notDatabaseConnection();
    if (clientId !== undefined) {
      const enabled = await loginConnections(this.#connections, tenant.id, clientId);
      if (!enabled.some((c) => c.id === row.id)) throw dbConnectionsErrors.connectionNotEnabled();
    }
    return { id: row.id, name: row.name, options: row.options as ConnectionOptions, row };
  }

  /** Signs the user up; with the request, the outcome goes to the tenant log (`ss`, `fs`). */
  /**
   * `passkey`: the user signs up with a passkey (the login step's passkey
   * signup, src/domain/mfa/passkeys.ts), under the id its passkey was made
   * for, with no password: no password is asked or checked.
   */
  async signup(tenant: Tenant, input: SignupInput, request?: FastifyRequest, passkey?: { userId: string }): Promise<SignupResponse> {
    const event = { client_id: input.client_id, connection: input.connection, user_name: input.email };
    try {
      const response = await this.#signup(tenant, input, request, passkey);
      if (request) logAuthenticationEvent(this.ctx, request, { type: 'ss', ...event, user_id: `auth0|${response._id}` });
      return response;
    } catch (error) {
      const description = error instanceof DbConnectionsError ? error.description : error instanceof PasswordStrengthError ? 'Password is too weak' : undefined;
      if (request) logAuthenticationEvent(this.ctx, request, { type: 'fs', ...event, ...(description && { description }) });
      throw error;
    }
  }

  async #signup(tenant: Tenant, input: SignupInput, request?: FastifyRequest, passkey?: { userId: string }): Promise<SignupResponse> {
    // A client the token policy closes to signup (the admin console: its operators come from the setup link and the Management API).
    if (!tokenPolicy(tenant.id, input.client_id).signup) throw dbConnectionsErrors.signupDisabled();
    const connection = await this.connectionFor(tenant, input.client_id, input.connection);
    if (connection.options.disable_signup === true) throw dbConnectionsErrors.signupDisabled();
    const requiresUsername = connection.options.requires_username === true;
    if (requiresUsername && input.username === undefined) throw dbConnectionsErrors.missing('username');
    if (!requiresUsername && input.username !== undefined) {
      throw dbConnectionsErrors.invalid('Cannot set username for connection without requires_username.');
    }
    if (!passkey) {
      const policy = checkPassword(connection.options, input.password);
      if (!policy.verified) throw new PasswordStrengthError(policy);
    }

    // A custom database that imports its users: an address its legacy store holds is taken (the user moves on their first login).
    if (await this.#legacyHolds(tenant, connection.row, input.email)) throw dbConnectionsErrors.userExists();
    const row = await newDatabaseUserRow({ tenantId: tenant.id, connectionId: connection.id, ...input, ...(passkey && { password: undefined }), now: isoAt(this.ctx.now()) });
    if (passkey) row.user_id = passkey.userId;
    const actions = await runPreUserRegistration(this.ctx, { tenantId: tenant.id, connection, user: row, clientId: input.client_id, ...(request && { request }) });
    if (actions?.failure !== undefined) throw dbConnectionsErrors.refusedByAction(actions.failure);
    if (actions?.deny) throw dbConnectionsErrors.refusedByAction(actions.deny.userMessage);
    if (actions) {
      row.app_metadata = { ...row.app_metadata, ...withoutNulls(actions.appMetadata) } as UserRow['app_metadata'];
      row.user_metadata = { ...row.user_metadata, ...withoutNulls(actions.userMetadata) } as UserRow['user_metadata'];
    }
    // A custom database without import_mode: the user is made in the legacy store (`create`), not here.
    const scripted = await this.#scriptSignup(tenant, connection.row, input);
    if (!scripted) {
      try {
        // The user and its `user.created` event commit together (src/domain/event-streams/events.ts).
        await this.ctx.unitOfWork.transaction(async (stores) => {
          await stores.users.insert(row);
          await recordEvent(stores, tenant, 'user.created', { ...userFromRow(row, connection.name) }, this.ctx.now());
        });
      } catch (error) {
        // Taken email or username alike (case-insensitively, per connection).
        if (isUniqueViolation(error)) throw dbConnectionsErrors.userExists();
        throw error;
      }
      await this.#mail.sendVerification(tenant, row);
    }
    const user = scripted ?? row;
    runPostUserRegistration(this.ctx, { tenantId: tenant.id, connection, user, ...(request && { request }) });

    // Key order as recorded: _id, email, username, email_verified, then the profile.
    const response: SignupResponse = {
      _id: userIdPart(user.user_id),
      email: input.email,
      ...(input.username !== undefined && { username: input.username }),
      email_verified: false,
    };
    for (const key of ['given_name', 'family_name', 'name', 'nickname', 'picture'] as const) {
      if (input[key] !== undefined) response[key] = input[key];
    }
    if (input.user_metadata !== undefined) response.user_metadata = input.user_metadata;
    return response;
  }

  /** A custom database's signup through its `create` script (without import_mode); undefined when the user is made here. */
  async #scriptSignup(tenant: Tenant, connection: ConnectionRow, input: SignupInput): Promise<UserRow | undefined> {
    try {
      return await scriptSignup(this.ctx, tenant.id, connection, {
        email: input.email,
        password: input.password,
        ...(input.username !== undefined && { username: input.username }),
        ...(input.user_metadata !== undefined && { user_metadata: input.user_metadata }),
      });
    } catch (error) {
      if (!(error instanceof CustomDatabaseError)) throw error;
      if (error.code === 'user_exists') throw dbConnectionsErrors.userExists();
      if (error.code === 'no_script') throw dbConnectionsErrors.signupDisabled();
      throw dbConnectionsErrors.invalid(error.message);
    }
  }

  /** Whether a custom database's legacy store holds the address (`get_user`, under import_mode); its failure refuses the signup. */
  async #legacyHolds(tenant: Tenant, connection: ConnectionRow, email: string): Promise<boolean> {
    try {
      return (await legacyUser(this.ctx, tenant.id, connection, email)) !== undefined;
    } catch (error) {
      if (error instanceof CustomDatabaseError) throw dbConnectionsErrors.invalid(error.message);
      throw error;
    }
  }

  /**
   * Takes one request from the (tenant, IP, lower-cased email) bucket of
   * change_password, shared through Redis when configured. Counted whether or
   * not the address has an account, so the answer reveals nothing about it.
   */
  takeChangePasswordRequest(tenant: Tenant, ip: string, email: string): Promise<RateLimitDecision> {
    const key = [tenant.id, ip, email.toLowerCase()].map(encodeURIComponent).join(':');
    return this.ctx.rateLimiter.consume('dbconnections_change_password', key, CHANGE_PASSWORD_RATE_LIMIT);
  }

  /**
   * Emails a reset link when the user exists; answers the same either way
   * (no account enumeration). The client, when given, must exist and have the
   * connection enabled: those are configuration errors, not user data.
   */
  async changePassword(tenant: Tenant, input: ChangePasswordInput, request?: FastifyRequest): Promise<void> {
    const connection = await this.connectionFor(tenant, input.client_id, input.connection);
    // A custom database that imports its users: one its legacy store holds is moved first, so the reset gives them a password here.
    const imported = await importedByEmail(this.ctx, tenant.id, connection.row, input.email).catch(() => undefined);
    const user = imported ?? (await this.#users.findByEmail(tenant.id, connection.id, input.email.toLowerCase()));
    if (user) await this.#mail.sendPasswordReset(tenant, user);
    if (user && request) {
      logAuthenticationEvent(this.ctx, request, { type: 'scpr', client_id: input.client_id, connection: connection.name, connection_id: connection.id, user_id: user.user_id, user_name: user.email ?? undefined });
    }
  }

  /**
   * What the verification page shows for a ticket: the address and the form's
   * CSRF token while the ticket is usable. Reading it consumes nothing, so a
   * mail scanner that fetches the link leaves it working.
   */
  async verificationForm(tenant: Tenant, ticket: string): Promise<VerifyFormState> {
    const row = await this.ctx.stores.tickets.findUsable(tenant.id, secretHash(ticket), 'email_verification', isoAt(this.ctx.now()));
    const user = row && (await this.#users.get(tenant.id, row.user_id));
    if (!user) return { usable: false };
    return { usable: true, email: user.email ?? '', csrf: this.csrfToken(tenant, ticket, 'email_verification') };
  }

  /**
   * Marks the email verified: CSRF first, then the ticket is consumed and the
   * user updated in one transaction, so the link works once.
   */
  async verifyEmail(tenant: Tenant, ticket: string, csrf: string | undefined): Promise<VerifyOutcome> {
    if (!this.csrfMatches(tenant, ticket, csrf, 'email_verification')) return { kind: 'bad_csrf' };
    const now = isoAt(this.ctx.now());
    // A custom database without import_mode: the legacy store marks the address first (its verify script).
    const usable = await this.ctx.stores.tickets.findUsable(tenant.id, secretHash(ticket), 'email_verification', now);
    if (!usable) return { kind: 'invalid_ticket' };
    const target = await this.#users.getIdentity(tenant.id, usable.user_id);
    const connection = target && (await this.#connections.get(tenant.id, target.connection_id));
    if (connection && target.email) {
      try {
        await scriptVerify(this.ctx, tenant.id, connection, target.email);
      } catch (error) {
        if (error instanceof CustomDatabaseError) return { kind: 'refused', message: error.message };
        throw error;
      }
    }
    const done = await this.ctx.unitOfWork.transaction(async ({ tickets, users }) => {
      const row = await tickets.findUsable(tenant.id, secretHash(ticket), 'email_verification', now);
      const userId = await tickets.consume(tenant.id, secretHash(ticket), 'email_verification', now);
      if (userId === undefined || row === undefined) return undefined;
      if (!(await users.update(tenant.id, userId, { email_verified: 1, updated_at: now }))) return undefined;
      const user = await users.get(tenant.id, userId);
      return user && { user, row };
    });
    if (done === undefined) return { kind: 'invalid_ticket' };
    await this.sendWelcome(tenant, done.user);
    const email = done.user.email ?? '';
    // A Management API ticket's result_url (POST /tickets/email-verification); else the page asks the template.
    const redirect = resultRedirect(done.row, email, 'Your email was verified. You can continue using the application.');
    return { kind: 'done', email, ...(redirect && { redirect }) };
  }

  /**
   * The welcome mail, as the service sends it once an address is verified:
   * only when the tenant has an enabled `welcome_email` template (Gatehouse
   * has no wording of its own for it).
   */
  private async sendWelcome(tenant: Tenant, user: UserRow): Promise<void> {
    const template = await storedTemplate(this.ctx, tenant, 'welcome_email');
    if (!template || template.enabled === 0 || !user.email) return;
    await sendTenantMail(this.ctx, tenant, 'welcome_email', user.email, { subject: 'Welcome', text: 'Welcome! Your email address is verified.\n' }, { user: userVariables(user) }, template);
  }

  /**
   * Where the browser goes once the address is verified: the tenant's
   * `verify_email` template's `resultUrl` (admin-registered), with the
   * service's `success=true` and `message`, and the address when
   * `includeEmailInRedirect`; undefined without one (the page says it).
   */
  async verificationResultUrl(tenant: Tenant, email: string): Promise<string | undefined> {
    const template = await storedTemplate(this.ctx, tenant, 'verify_email');
    if (!template?.result_url) return undefined;
    const url = new URL(template.result_url);
    url.searchParams.set('success', 'true');
    url.searchParams.set('message', 'Your email was verified. You can continue using the application.');
    if (template.include_email_in_redirect === 1) url.searchParams.set('email', email);
    return url.href;
  }

  /**
   * CSRF token of a ticket's form (password reset, or email verification):
   * HMAC-SHA256 of the ticket's hash under a key derived (HKDF) from the master
   * key, one key per kind. It is bound to the ticket, needs no storage, and
   * cannot be computed without the master key, so a form posted from another
   * site with a guessed or copied value is refused. `kind` defaults to the
   * password reset form's.
   */
  csrfToken(tenant: Tenant, ticket: string, kind: TicketKind = 'password_reset'): string {
    return this.formTokens(kind).token(tenant.id, secretHash(ticket));
  }

  private csrfMatches(tenant: Tenant, ticket: string, given: string | undefined, kind: TicketKind): boolean {
    return this.formTokens(kind).matches(given, tenant.id, secretHash(ticket));
  }

  private formTokens(kind: TicketKind): FormTokens {
    let tokens = this.#csrf.get(kind);
    if (!tokens) {
      tokens = this.ctx.formTokens(CSRF_KEY_INFO[kind]);
      this.#csrf.set(kind, tokens);
    }
    return tokens;
  }

  private async resetTarget(tenant: Tenant, ticket: string): Promise<{ user: UserWithConnection; options: ConnectionOptions; connection: ConnectionRow | undefined; ticket: TicketRow } | undefined> {
    const row = await this.ctx.stores.tickets.findUsable(tenant.id, secretHash(ticket), 'password_reset', isoAt(this.ctx.now()));
    if (!row) return undefined;
    // The password of an identity linked to another user is still its own (it logs that user in).
    const user = await this.#users.getIdentity(tenant.id, row.user_id);
    if (!user) return undefined;
    const connection = await this.#connections.get(tenant.id, user.connection_id);
    return { user, options: connection ? (connection.options as ConnectionOptions) : {}, connection, ticket: row };
  }

  async resetForm(tenant: Tenant, ticket: string): Promise<ResetFormState> {
    const target = await this.resetTarget(tenant, ticket);
    if (!target) return { usable: false };
    return { usable: true, email: target.user.email ?? '', csrf: this.csrfToken(tenant, ticket), policy: checkPassword(target.options, '') };
  }

  /**
   * Sets the new password: CSRF first, then the ticket, then the policy, and
   * only then consumes the ticket and writes the hash in one transaction, so a
   * refused password leaves the link usable and two concurrent posts cannot
   * both succeed. The user's sessions and refresh tokens end with it
   * (src/domain/users/password-change.ts).
   */
  async resetPassword(
    tenant: Tenant,
    ticket: string,
    csrf: string | undefined,
    password: string,
    confirmation: string | undefined,
    request?: FastifyRequest,
  ): Promise<ResetOutcome> {
    const outcome = await this.#resetPassword(tenant, ticket, csrf, password, confirmation, request);
    // With the request, the outcome goes to the tenant log (`scp`, `fcp`); a forged form is no attempt.
    if (request && outcome.kind !== 'bad_csrf') {
      const done = outcome.kind === 'done';
      const description = { done: undefined, invalid_ticket: 'The ticket is expired or was used', mismatch: 'The passwords do not match', weak: 'Password is too weak', refused: "The connection's change_password script refused or failed" }[outcome.kind];
      logAuthenticationEvent(this.ctx, request, { type: done ? 'scp' : 'fcp', ...('email' in outcome && { user_name: outcome.email }), ...(description && { description }) });
    }
    return outcome;
  }

  async #resetPassword(tenant: Tenant, ticket: string, csrf: string | undefined, password: string, confirmation: string | undefined, request: FastifyRequest | undefined): Promise<ResetOutcome> {
    if (!this.csrfMatches(tenant, ticket, csrf, 'password_reset')) return { kind: 'bad_csrf' };
    const target = await this.resetTarget(tenant, ticket);
    if (!target) return { kind: 'invalid_ticket' };
    const email = target.user.email ?? '';
    const policy = checkPassword(target.options, password);
    if (confirmation !== password) return { kind: 'mismatch', email, policy: checkPassword(target.options, '') };
    if (!policy.verified) return { kind: 'weak', email, policy };
    // A custom database without import_mode: the legacy store's password changes first (its change_password script).
    if (target.connection) {
      try {
        await scriptPasswordChange(this.ctx, tenant.id, target.connection, email, password);
      } catch (error) {
        if (error instanceof CustomDatabaseError) return { kind: 'refused', email, policy: checkPassword(target.options, ''), message: error.message };
        throw error;
      }
    }

    const password_hash = await hashPassword(password);
    const now = isoAt(this.ctx.now());
    const done = await this.ctx.unitOfWork.transaction(async ({ tickets }, joined) => {
      const userId = await tickets.consume(tenant.id, secretHash(ticket), 'password_reset', now);
      if (userId !== target.user.user_id) return false;
      // An emailed reset link proves control of the mailbox, as a verification link does; a
      // Management API ticket verifies the address only when made with mark_email_as_verified.
      const verified = target.ticket.mark_email_verified === 0 ? {} : { email_verified: 1 };
      return changePassword(joined, tenant.id, userId, { password_hash, last_password_reset: now, ...verified, updated_at: now }, now, this.ctx.lookups);
    });
    if (!done) return { kind: 'invalid_ticket' };
    runPostChangePassword(this.ctx.actions, {
      tenantId: tenant.id,
      user: { ...target.user, last_password_reset: now, ...(target.ticket.mark_email_verified !== 0 && { email_verified: 1 }) },
      connection: { id: target.user.connection_id, name: target.user.connection_name },
      ...(request && { request: eventRequest(request) }),
    });
    const redirect = resultRedirect(target.ticket, email, 'You can now login to the application with the new password.');
    return { kind: 'done', email, ...(redirect && { redirect }) };
  }
}

/**
 * Where a used Management API ticket sends the browser: its result_url with
 * `success=true` and the service's message (and `email=` when the ticket was
 * made with includeEmailInRedirect); undefined for an emailed ticket.
 */
function resultRedirect(row: TicketRow, email: string, message: string): string | undefined {
  if (!row.result_url) return undefined;
  const url = new URL(row.result_url);
  if (row.include_email === 1) url.searchParams.set('email', email);
  url.searchParams.set('success', 'true');
  url.searchParams.set('message', message);
  return url.href;
}
