/**
 * Recording Authentication API events in the tenant log (src/domain/logs/):
 * the request's address, user agent and host are filled in here, so the
 * places that decide an outcome (token grants, login steps, signup, password
 * changes, logout) each make one call with what they know. Recording never
 * waits: it only queues the event.
 */
import type { FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { ConnectionStore } from '../domain/connections/store.js';
import type { TenantLogs } from '../domain/logs/tenant-logs.js';
import type { UserStore } from '../domain/users/store.js';
import type { LogEvent, LogType } from '../domain/logs/events.js';
import type { ConnectionRow } from '../domain/rows.js';
import type { UserRow } from '../domain/users/model.js';
import { isActive } from '../domain/users/active-user.js';
import { OAuthError } from '../platform/http/errors.js';
import type { AuthenticatedClient } from './client-auth/method.js';
import type { Params } from './params.js';
import type { LoginFacts, TokenResponse } from './token/grant.js';

/** The database connections' strategy. */
const DATABASE_STRATEGY = 'auth0';

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
}

/** The request's `ip`, `user_agent` and `hostname`, which every Authentication API event carries. */
function requestMembers(request: FastifyRequest): Pick<LogEvent, 'ip' | 'user_agent' | 'hostname'> {
  return { ip: request.ip, user_agent: header(request, 'user-agent'), hostname: request.tenant.customDomain ?? request.tenant.domain };
}

/** What recording an event in the tenant log touches. */
export interface TenantLogContext {
  readonly tenantLogs: TenantLogs;
}

/** What recording an event that names its user or connection touches (looked up off the request path). */
export interface TenantLogLookupContext extends TenantLogContext {
  readonly logger: Logger;
  readonly stores: { readonly connections: ConnectionStore; readonly users: UserStore };
}

/** Records the event with the request's `ip`, `user_agent` and `hostname`. */
export function logAuthenticationEvent(ctx: TenantLogContext, request: FastifyRequest, event: LogEvent): void {
  if (!ctx.tenantLogs.enabled) return;
  ctx.tenantLogs.record(request.tenant.id, { ...requestMembers(request), ...event });
}

/** Records the event once a lookup off the request's path has completed it (flush and close wait for it). */
function logAuthenticationEventWhen(ctx: TenantLogContext, request: FastifyRequest, event: Promise<LogEvent>): void {
  if (!ctx.tenantLogs.enabled) return;
  const members = requestMembers(request);
  ctx.tenantLogs.recordWhen(request.tenant.id, event.then((known) => ({ ...members, ...known })));
}

/** Success and failure types of the grants whose exchanges are logged (the service's codes); a Map: own entries only. */
const EXCHANGE_TYPES: ReadonlyMap<string, readonly [LogType, LogType]> = new Map([
  ['client_credentials', ['seccft', 'feccft']],
  ['refresh_token', ['sertft', 'fertft']],
  ['authorization_code', ['seacft', 'feacft']],
  ['password', ['sepft', 'fepft']],
  ['http://auth0.com/oauth/grant-type/password-realm', ['sepft', 'fepft']],
  ['urn:ietf:params:oauth:grant-type:device_code', ['sede', 'fede']],
  ['http://auth0.com/oauth/grant-type/passwordless/otp', ['sepotpft', 'fepotpft']],
  ['http://auth0.com/oauth/grant-type/mfa-otp', ['seotpft', 'feotpft']],
  ['http://auth0.com/oauth/grant-type/mfa-oob', ['seoobft', 'feoobft']],
  ['http://auth0.com/oauth/grant-type/mfa-recovery-code', ['sercft', 'fercft']],
]);

/**
 * A `grant_type` no grant handles (`unsupported_grant_type`, whatever its
 * name, `constructor` included) is a failed login, `f`, with the error's
 * description ("Unsupported grant type: …"). The service's code for it is
 * not documented; `f` is the one its failures without an exchange type use.
 */
const UNSUPPORTED_GRANT: LogType = 'f';

/** Polling answers of the device flow: not failures of an exchange. */
const PENDING = new Set(['authorization_pending', 'slow_down']);

/** What the token endpoint learnt of an exchange so far. */
export interface TokenExchange {
  grantType?: string;
  client?: AuthenticatedClient;
  params?: Params;
  /** What the grant learnt of the login (its connection and user), filled in by the grant. */
  login: LoginFacts;
}

/** The `sub` of the tokens just issued (their payload, no verification needed: they are ours). */
function subjectOf(response: TokenResponse): string | undefined {
  for (const token of [response.id_token, response.access_token]) {
    if (typeof token !== 'string') continue;
    const payload = token.split('.')[1];
    if (payload === undefined) continue;
    try {
      const sub = (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { sub?: unknown }).sub;
      if (typeof sub === 'string') return sub;
    } catch {
      // an opaque token: no subject to tell
    }
  }
  return undefined;
}

/** The service's `strategy_type` of a connection's strategy. */
function strategyType(strategy: string): string {
  if (strategy === DATABASE_STRATEGY) return 'database';
  if (strategy === 'email' || strategy === 'sms') return 'passwordless';
  return 'enterprise';
}

/** The members of a login event that name its connection. */
function connectionMembers(connection: Pick<ConnectionRow, 'id' | 'name' | 'strategy'>): Pick<LogEvent, 'connection' | 'connection_id' | 'strategy' | 'strategy_type'> {
  return { connection: connection.name, connection_id: connection.id, strategy: connection.strategy, strategy_type: strategyType(connection.strategy) };
}

/**
 * Records the event once what the request did not tell is looked up, off
 * the request's path: the user of a failed database login by the
 * identifier tried (`user_id` when one exists), the connection of a user
 * known only by id (a code or refresh token's).
 */
function logCompleted(
  ctx: TenantLogLookupContext,
  request: FastifyRequest,
  event: LogEvent,
  lookup: { connection?: ConnectionRow | undefined; identifier?: string | undefined },
): void {
  const tenantId = request.tenant.id;
  const { connection, identifier } = lookup;
  const byIdentifier = event.user_id === undefined && connection?.strategy === DATABASE_STRATEGY && identifier !== undefined ? identifier : undefined;
  const byUserId = event.user_id !== undefined && event.connection === undefined ? event.user_id : undefined;
  if (byIdentifier === undefined && byUserId === undefined) return logAuthenticationEvent(ctx, request, event);
  const complete = async (): Promise<LogEvent> => {
    if (byIdentifier !== undefined) {
      const user = await ctx.stores.users.findByLoginIdentifier(tenantId, connection!.id, byIdentifier.toLowerCase());
      return user ? { ...event, user_id: user.user_id } : event;
    }
    const user = await ctx.stores.users.get(tenantId, byUserId!);
    const found = user && (await ctx.stores.connections.get(tenantId, user.connection_id));
    return found ? { ...event, ...connectionMembers(found), user_name: event.user_name ?? user.email ?? user.username ?? undefined } : event;
  };
  logAuthenticationEventWhen(
    ctx,
    request,
    complete().catch((err: unknown) => {
      ctx.logger.warn({ err }, 'completing a login event for the tenant log failed; recorded as it was');
      return event;
    }),
  );
}

/** The token endpoint's outcome: a success with the response, or a failure with the error thrown. */
export function logTokenExchange(
  ctx: TenantLogLookupContext,
  request: FastifyRequest,
  exchange: TokenExchange,
  outcome: { response: TokenResponse } | { error: unknown },
): void {
  if (exchange.grantType === undefined || !ctx.tenantLogs.enabled) return;
  const error = 'error' in outcome ? outcome.error : undefined;
  const unsupported = error instanceof OAuthError && error.error === 'unsupported_grant_type';
  const types = EXCHANGE_TYPES.get(exchange.grantType);
  if (!types && !unsupported) return;
  const row = exchange.client?.client.row;
  const { connection, user } = exchange.login;
  // The identifier tried (password and passwordless grants), never the password or code.
  const identifier = exchange.params?.username;
  const base: Omit<LogEvent, 'type'> = {
    client_id: row?.client_id ?? exchange.params?.client_id,
    client_name: row?.name,
    audience: exchange.params?.audience,
    ...(connection && connectionMembers(connection)),
    user_id: user?.user_id ?? exchange.login.userId,
    user_name: user?.email ?? user?.username ?? identifier,
  };
  if ('response' in outcome) {
    const sub = exchange.grantType === 'client_credentials' ? undefined : subjectOf(outcome.response);
    const scope = typeof outcome.response.scope === 'string' ? outcome.response.scope : exchange.params?.scope;
    logCompleted(ctx, request, { type: types![0], ...base, scope, user_id: sub ?? base.user_id }, {});
    return;
  }
  if (error instanceof OAuthError && PENDING.has(error.error)) return;
  const event: LogEvent = {
    type: types ? types[1] : UNSUPPORTED_GRANT,
    ...base,
    scope: exchange.params?.scope,
    description: error instanceof OAuthError ? error.description : 'Unexpected error',
    details: { error: error instanceof OAuthError ? error.error : 'server_error', grant_type: exchange.grantType },
  };
  logCompleted(ctx, request, event, { connection, identifier });
}

/** How a password login at the hosted login page ended. */
export type PasswordLoginOutcome = { user: UserRow; active: boolean; details?: Record<string, unknown> | undefined } | { scriptError: string } | 'blocked_account' | 'wrong_credentials';

/**
 * The login page's outcome: `s` with the user, `limit_wc` when brute-force
 * protection blocks the attempt, `f` for a blocked user, and for wrong
 * credentials `fp` (the user exists: a wrong password) or `fu` (no such
 * user), told apart by one lookup after the answer's work is done, off the
 * request's path.
 */
export function logPasswordLogin(
  ctx: TenantLogLookupContext,
  request: FastifyRequest,
  login: { client: { client_id: string; name: string }; connection: ConnectionRow; identifier: string; outcome: PasswordLoginOutcome },
): void {
  if (!ctx.tenantLogs.enabled) return;
  const { connection, outcome } = login;
  const event = {
    client_id: login.client.client_id,
    client_name: login.client.name,
    ...connectionMembers(connection),
    user_name: login.identifier,
  };
  if (typeof outcome === 'object' && 'scriptError' in outcome) {
    // A custom database's script failed: what it said is the tenant's to read, never the client's.
    logAuthenticationEvent(ctx, request, { type: 'f', ...event, description: outcome.scriptError.slice(0, 512) });
  } else if (typeof outcome === 'object') {
    const user = { user_id: outcome.user.user_id, user_name: outcome.user.email ?? login.identifier };
    logAuthenticationEvent(ctx, request, outcome.active ? { type: 's', ...event, ...user, ...(outcome.details && { details: outcome.details }) } : { type: 'f', ...event, ...user, description: 'user is blocked' });
  } else if (outcome === 'blocked_account') {
    logAuthenticationEvent(ctx, request, { type: 'limit_wc', ...event, description: 'Too many failed login attempts; the account is blocked for this address' });
  } else {
    // fp when the identifier names a user (a wrong password), fu when it names none.
    const description = 'Wrong email or password.';
    logAuthenticationEventWhen(
      ctx,
      request,
      ctx.stores.users.findByLoginIdentifier(request.tenant.id, connection.id, login.identifier.toLowerCase()).then(
        (user): LogEvent => (user ? { type: 'fp', ...event, user_id: user.user_id, description } : { type: 'fu', ...event, description }),
        (err: unknown): LogEvent => {
          // Whether the user exists is not known: the plain failed login.
          ctx.logger.warn({ err }, 'looking up the user of a failed login for the tenant log failed');
          return { type: 'f', ...event, description };
        },
      ),
    );
  }
}

/**
 * A passkey login at the hosted login page, as a password login's: `s` with
 * the user (`f` for a blocked one), `limit_wc` when brute-force protection
 * blocks it, and `f` "Passkey not accepted." for a refused passkey, with the
 * user when the credential named one.
 */
export function logPasskeyLogin(
  ctx: TenantLogLookupContext,
  request: FastifyRequest,
  login: { client: { client_id: string; name: string }; connection: ConnectionRow; user: UserRow | undefined; outcome: 'ok' | 'blocked_account' | 'refused'; details?: Record<string, unknown> | undefined },
): void {
  if (!ctx.tenantLogs.enabled) return;
  const { user, outcome } = login;
  const event = {
    client_id: login.client.client_id,
    client_name: login.client.name,
    ...connectionMembers(login.connection),
    ...(user && { user_id: user.user_id, user_name: user.email ?? user.username ?? user.user_id }),
  };
  if (outcome === 'ok' && user) logPasswordLogin(ctx, request, { ...login, identifier: event.user_name!, outcome: { user, active: isActive(user), details: login.details } });
  else if (outcome === 'blocked_account') logAuthenticationEvent(ctx, request, { type: 'limit_wc', ...event, description: 'Too many failed login attempts; the account is blocked for this address' });
  else logAuthenticationEvent(ctx, request, { type: 'f', ...event, description: 'Passkey not accepted.' });
}
