/**
 * The Resource Owner Password grants (RFC 6749 §4.3) as the service offers
 * them (authentication-api-wire-notes §5.1):
 *
 * - `password`: the connection is the tenant's `default_directory` when set,
 *   otherwise the one database connection enabled for the client; with none
 *   or several, 400 `invalid_request` names the way out (send a realm, or set
 *   the default directory) rather than guessing;
 * - `http://auth0.com/oauth/grant-type/password-realm`: `realm` names the connection.
 *
 * Both are one pipeline of named steps: resolve the connection, check it is
 * enabled for the client, refuse a brute-forced (identifier, IP) pair,
 * verify the password, refuse a blocked user, ask for a second factor when
 * MFA applies (../../mfa/required.ts: 403 `mfa_required`), record the login,
 * issue the tokens. Public clients (client_id only) may use them.
 *
 * `username` carries the user's email or, on connections with
 * `requires_username`, their username: either logs in (case-insensitively).
 * Every failure answers the recorded 403 "Wrong email or password.", whichever
 * kind of identifier was sent.
 */
import type { FastifyRequest } from 'fastify';
import type { AuthenticatedClient } from '../../client-auth/method.js';
import type { LoginAttemptKey } from '../../../domain/brute-force.js';
import { loginAttempt, recordLoginFailure } from '../../../domain/attack-protection/login-failures.js';
import { endUserIp } from '../../end-user-ip.js';
import type { ConnectionRow } from '../../../domain/connections/model.js';
import { oauthErrors } from '../../../platform/http/errors.js';
import type { Tenant } from '../../../domain/tenants/tenant.js';
import { recordLogin } from '../../../domain/users/login.js';
import { CustomDatabaseError, passwordLogin } from '../../../domain/users/custom-database.js';
import type { UserRow } from '../../../domain/users/model.js';
import { requireParams, type Params } from '../../params.js';
import { whileClientWaits } from '../../client-waiting.js';
import type { GrantContext, GrantHandler, GrantHandlerContext, TokenResponse } from '../grant.js';
import { issueUserTokens } from '../user-tokens.js';
import { runPostLogin } from '../../actions/post-login.js';
import { isActive } from '../../../domain/users/active-user.js';
import { requireSecondFactor } from '../../mfa/required.js';
import { loginConnections } from '../../../domain/issuance/token-policy.js';

export const PASSWORD_REALM_GRANT = 'http://auth0.com/oauth/grant-type/password-realm';

const DATABASE_STRATEGY = 'auth0';

/** `gty` of the access tokens of both grants. */
const GTY = 'password';

const wrongCredentials = () => oauthErrors.invalidGrant('Wrong email or password.');

type ConnectionResolver = (ctx: GrantHandlerContext, tenant: Tenant, client: AuthenticatedClient, params: Params) => Promise<ConnectionRow>;

/** password-realm: the connection named by `realm`, enabled for the client. */
async function connectionFromRealm(ctx: GrantHandlerContext, tenant: Tenant, client: AuthenticatedClient, params: Params): Promise<ConnectionRow> {
  requireParams(params, 'realm');
  return requireEnabledConnection(ctx, tenant, client, params.realm!);
}

/** password: the tenant's default directory, else the client's only database connection. */
async function defaultConnection(ctx: GrantHandlerContext, tenant: Tenant, client: AuthenticatedClient): Promise<ConnectionRow> {
  const named = tenant.settings.default_directory;
  if (named) return requireEnabledConnection(ctx, tenant, client, named);
  const enabled = (await loginConnections(ctx.stores.connections, tenant.id, client.client.row.client_id)).filter(
    (c) => c.strategy === DATABASE_STRATEGY,
  );
  if (enabled.length === 1) return enabled[0]!;
  const fix = `use grant_type ${PASSWORD_REALM_GRANT} with a realm, or set the tenant's default_directory`;
  if (enabled.length === 0) throw oauthErrors.invalidRequest(`No database connection is enabled for the client; ${fix}`);
  throw oauthErrors.invalidRequest(
    `Several database connections are enabled for the client (${enabled.map((c) => c.name).join(', ')}); ${fix}`,
  );
}

async function requireEnabledConnection(ctx: GrantHandlerContext, tenant: Tenant, client: AuthenticatedClient, name: string): Promise<ConnectionRow> {
  const store = ctx.stores.connections;
  const connection = (await loginConnections(store, tenant.id, client.client.row.client_id)).find((c) => c.name === name);
  if (!connection) {
    if (!(await store.getByName(tenant.id, name))) throw oauthErrors.invalidRequest(`Connection does not exist: ${name}`);
    throw oauthErrors.unauthorizedClient(`The connection ${name} is not enabled for the client.`);
  }
  if (connection.strategy !== DATABASE_STRATEGY) {
    throw oauthErrors.invalidRequest(`The connection ${name} is not a database connection.`);
  }
  return connection;
}

/** Refuses an (identifier, IP) pair that used up its failures, before the password is looked at. */
async function refuseBruteForced(ctx: GrantHandlerContext, attempt: LoginAttemptKey): Promise<void> {
  if (await ctx.bruteForce.isBlocked(attempt)) throw oauthErrors.tooManyAttempts();
}

/**
 * Unknown user, user without password and wrong password answer alike; each failure is counted.
 * A client that hangs up before its password is verified costs no verification (../../client-waiting.ts).
 */
async function verifyCredentials(ctx: GrantHandlerContext, request: FastifyRequest, tenant: Tenant, attempt: LoginAttemptKey, connection: ConnectionRow, params: Params): Promise<UserRow> {
  let user: UserRow | undefined;
  try {
    user = await whileClientWaits(request, (signal) => passwordLogin(ctx, attempt.tenantId, connection, params.username!, params.password!, signal));
  } catch (error) {
    throw scriptRefusal(error);
  }
  if (!user) {
    await recordLoginFailure(ctx, tenant, connection.id, attempt);
    throw wrongCredentials();
  }
  // The password was right: the count of consecutive failures starts again.
  await ctx.bruteForce.recordSuccess(attempt);
  return user;
}

/**
 * A custom database's script that refused or failed (src/domain/users/custom-database.ts): its
 * `UnauthorizedError` is 401 `unauthorized` with its message, as the service answers; any other
 * failure 403 `access_denied` with a fixed description (what the script said goes to the logs).
 */
function scriptRefusal(error: unknown): unknown {
  if (!(error instanceof CustomDatabaseError)) return error;
  return error.code === 'unauthorized' ? oauthErrors.unauthorized(error.message) : oauthErrors.accessDenied(error.message);
}

function refuseBlockedUser(user: UserRow): void {
  if (!isActive(user)) throw oauthErrors.userBlocked();
}

function attemptOf(tenant: Tenant, connection: ConnectionRow, request: FastifyRequest, client: AuthenticatedClient, params: Params): LoginAttemptKey {
  return loginAttempt(tenant, connection.name, params.username!, endUserIp(request, client));
}

function passwordGrant(grantType: string, parameters: readonly string[], resolveConnection: ConnectionResolver): GrantHandler {
  return {
    grantType,
    parameters,
    // Public clients (token_endpoint_auth_method none) may log users in with client_id alone.
    requiresConfidentialClient: false,

    async handle({ ctx, tenant, request, params, client, confirmation, login }: GrantContext): Promise<TokenResponse> {
      requireParams(params, 'username', 'password');
      const connection = (login.connection = await resolveConnection(ctx, tenant, client, params));
      const attempt = attemptOf(tenant, connection, request, client, params);
      await refuseBruteForced(ctx, attempt);
      const verified = (login.user = await verifyCredentials(ctx, request, tenant, attempt, connection, params));
      refuseBlockedUser(verified);
      await requireSecondFactor(ctx, tenant, client.client, verified, { audience: params.audience, scope: params.scope });
      const user = await recordLogin(ctx.stores.users, ctx.now(), verified);
      const actions = await runPostLogin(ctx, {
        tenant,
        client: client.client,
        user,
        connection: { id: connection.id, name: connection.name, strategy: connection.strategy },
        request,
        ip: endUserIp(request, client),
        protocol: 'oauth2-password',
        audience: params.audience,
        scope: params.scope,
        canRedirect: false,
      });
      return issueUserTokens(ctx, {
        tenant,
        client: client.client,
        user,
        audience: params.audience,
        scope: params.scope,
        grantType: GTY,
        ...(confirmation && { confirmation: confirmation }),
        ...(actions && { actions }),
      });
    },
  };
}

export const password: GrantHandler = passwordGrant('password', ['username', 'password', 'audience', 'scope'], (ctx, tenant, client) => defaultConnection(ctx, tenant, client));

export const passwordRealm: GrantHandler = passwordGrant(PASSWORD_REALM_GRANT, ['username', 'password', 'realm', 'audience', 'scope'], connectionFromRealm);
