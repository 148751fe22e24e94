/**
 * Recording Authentication API events in the tenant log (src/domain/logs/):
 * the request's address, user agent and host are filled in here, so the
 * places that decide an outcome (token grants, login steps, signup, password
 * changes, logout) each make one call with what they know. Recording never
 * waits: it only queues the event.
 */
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../domain/context.js';
import type { LogEvent, LogType } from '../domain/logs/events.js';
import type { ConnectionRow } from '../domain/rows.js';
import type { UserRow } from '../domain/users/model.js';
import { OAuthError } from '../platform/http/errors.js';
import type { AuthenticatedClient } from './client-auth/method.js';
import type { Params } from './params.js';
import type { TokenResponse } from './token/grant.js';

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
}

/** Records the event with the request's `ip`, `user_agent` and `hostname`. */
export function logAuthenticationEvent(ctx: Pick<AppContext, 'tenantLogs'>, request: FastifyRequest, event: LogEvent): void {
  if (!ctx.tenantLogs.enabled) return;
  ctx.tenantLogs.record(request.tenant.id, {
    ip: request.ip,
    user_agent: header(request, 'user-agent'),
    hostname: request.tenant.customDomain ?? request.tenant.domain,
    ...event,
  });
}

/** Success and failure types of the grants whose exchanges are logged (the service's codes). */
const EXCHANGE_TYPES: Record<string, readonly [LogType, LogType]> = {
  client_credentials: ['seccft', 'feccft'],
  refresh_token: ['sertft', 'fertft'],
  authorization_code: ['seacft', 'feacft'],
  password: ['sepft', 'fepft'],
  'http://auth0.com/oauth/grant-type/password-realm': ['sepft', 'fepft'],
  'urn:ietf:params:oauth:grant-type:device_code': ['sede', 'fede'],
  'http://auth0.com/oauth/grant-type/passwordless/otp': ['seotpft', 'feotpft'],
};

/** Polling answers of the device flow: not failures of an exchange. */
const PENDING = new Set(['authorization_pending', 'slow_down']);

/** What the token endpoint learnt of an exchange so far. */
export interface TokenExchange {
  grantType?: string;
  client?: AuthenticatedClient;
  params?: Params;
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

/** The token endpoint's outcome: a success with the response, or a failure with the error thrown. */
export function logTokenExchange(
  ctx: Pick<AppContext, 'tenantLogs'>,
  request: FastifyRequest,
  exchange: TokenExchange,
  outcome: { response: TokenResponse } | { error: unknown },
): void {
  const types = exchange.grantType === undefined ? undefined : EXCHANGE_TYPES[exchange.grantType];
  if (!types || !ctx.tenantLogs.enabled) return;
  const row = exchange.client?.client.row;
  const base = {
    client_id: row?.client_id ?? exchange.params?.client_id,
    client_name: row?.name,
    audience: exchange.params?.audience,
  };
  if ('response' in outcome) {
    const sub = exchange.grantType === 'client_credentials' ? undefined : subjectOf(outcome.response);
    const scope = typeof outcome.response.scope === 'string' ? outcome.response.scope : exchange.params?.scope;
    logAuthenticationEvent(ctx, request, { type: types[0], ...base, scope, user_id: sub });
    return;
  }
  const error = outcome.error;
  if (error instanceof OAuthError && PENDING.has(error.error)) return;
  logAuthenticationEvent(ctx, request, {
    type: types[1],
    ...base,
    scope: exchange.params?.scope,
    description: error instanceof OAuthError ? error.description : 'Unexpected error',
    details: { error: error instanceof OAuthError ? error.error : 'server_error', grant_type: exchange.grantType },
  });
}

/** How a password login at the hosted login page ended. */
export type PasswordLoginOutcome = { user: UserRow; active: boolean } | 'blocked_account' | 'wrong_credentials';

/**
 * The login page's outcome: `s` with the user, `limit_wc` when brute-force
 * protection blocks the attempt, `f` for a blocked user, and for wrong
 * credentials `fp` (the user exists: a wrong password) or `fu` (no such
 * user), told apart by one lookup after the answer's work is done, off the
 * request's path.
 */
export function logPasswordLogin(
  ctx: Pick<AppContext, 'tenantLogs' | 'stores' | 'logger'>,
  request: FastifyRequest,
  login: { client: { client_id: string; name: string }; connection: ConnectionRow; identifier: string; outcome: PasswordLoginOutcome },
): void {
  if (!ctx.tenantLogs.enabled) return;
  const { connection, outcome } = login;
  const event = {
    client_id: login.client.client_id,
    client_name: login.client.name,
    connection: connection.name,
    connection_id: connection.id,
    strategy: connection.strategy,
    strategy_type: 'database',
    user_name: login.identifier,
  };
  if (typeof outcome === 'object') {
    const user = { user_id: outcome.user.user_id, user_name: outcome.user.email ?? login.identifier };
    logAuthenticationEvent(ctx, request, outcome.active ? { type: 's', ...event, ...user } : { type: 'f', ...event, ...user, description: 'user is blocked' });
  } else if (outcome === 'blocked_account') {
    logAuthenticationEvent(ctx, request, { type: 'limit_wc', ...event, description: 'Too many failed login attempts; the account is blocked for this address' });
  } else {
    ctx.stores.users.findByLoginIdentifier(request.tenant.id, connection.id, login.identifier.toLowerCase()).then(
      (user) =>
        logAuthenticationEvent(ctx, request, user ? { type: 'fp', ...event, user_id: user.user_id, description: 'Wrong email or password.' } : { type: 'fu', ...event, description: 'Wrong email or password.' }),
      (err: unknown) => ctx.logger.warn({ err }, 'looking up the user of a failed login for the tenant log failed'),
    );
  }
}
