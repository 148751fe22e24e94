/**
 * POST /co/authenticate: cross-origin authentication, the embedded login of
 * auth0.js (`webAuth.login` with a realm, `passwordlessLogin`) and Lock
 * (wire notes §15; auth0.js web-auth/cross-origin-authentication.js), as a
 * pipeline:
 *
 * 1. the client (`client_id`), which must have `cross_origin_authentication`
 *    (else 401 `unauthorized_client` "Cross origin login not allowed.");
 * 2. the page's origin, one of the client's `allowed_origins`/`web_origins`
 *    (the CORS hook, ../cors.ts, has already answered another origin with
 *    the service's bare 403; a request without an Origin, which no browser
 *    page sends, is refused the same way);
 * 3. the credentials by `credential_type`: `…/password-realm` (`realm` names
 *    the database connection), `password` (the tenant's `default_directory`),
 *    `…/passwordless/otp` (`realm` the email or sms connection, `otp` the
 *    code /passwordless/start sent); another type: 400
 *    `unsupported_credential_type`. Passwords go through brute-force
 *    protection as on the login page (a blocked pair: 429
 *    `too_many_attempts`; a failure is counted); every wrong credential is
 *    403 `access_denied` "Wrong email or password." (or "… verification
 *    code."), whether or not the user exists; a blocked user 403
 *    `blocked_user`;
 * 4. the answer `{login_ticket, co_verifier, co_id}` and the verifier cookie
 *    (./ticket.ts); the login itself (session, MFA, consent) happens when
 *    the ticket is redeemed at /authorize.
 */
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { loginAttempt, recordLoginFailure, type LoginFailureContext } from '../../domain/attack-protection/login-failures.js';
import { originAllowed } from '../../domain/clients/origins.js';
import type { ConnectionRow } from '../../domain/connections/model.js';
import type { IssuanceClient, IssuanceLookups } from '../../domain/issuance/lookups.js';
import { passwordlessUser, verifyEmailCode, type PasswordlessContext } from '../../domain/passwordless/service.js';
import { SMS_STRATEGY } from '../../domain/passwordless/options.js';
import type { UserRow } from '../../domain/rows.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { isActive } from '../../domain/users/active-user.js';
import { CustomDatabaseError, passwordLogin } from '../../domain/users/custom-database.js';
import type { ConnectionScripts } from '../../domain/connections/scripts.js';
import type { SecretBox } from '../../platform/crypto/secret-box.js';
import { whileClientWaits } from '../client-waiting.js';
import { oauthErrors } from '../../platform/http/errors.js';
import { pick, readBody, requireParams, type Params } from '../params.js';
import { passwordlessConnection } from '../passwordless/connection.js';
import { logPasswordLogin, type PasswordLoginOutcome, type TenantLogLookupContext } from '../tenant-log.js';
import { issueLoginTicket, type LoginTicketContext } from './ticket.js';
import { loginConnections } from '../../domain/issuance/token-policy.js';
import type { BruteForceProtection } from '../../domain/brute-force.js';
import type { ConnectionStore } from '../../domain/connections/store.js';
import type { UserStore } from '../../domain/users/store.js';

export const PASSWORD_REALM = 'http://auth0.com/oauth/grant-type/password-realm';
export const PASSWORDLESS_OTP = 'http://auth0.com/oauth/grant-type/passwordless/otp';
const PASSWORD = 'password';

const DATABASE_STRATEGY = 'auth0';

const PARAMETERS = ['client_id', 'credential_type', 'username', 'password', 'otp', 'realm'];

const notAllowed = () => oauthErrors.unauthorizedClient('Cross origin login not allowed.', 401);
const wrongPassword = () => oauthErrors.accessDenied('Wrong email or password.');
const blockedUser = oauthErrors.blockedUser;

/** What POST /co/authenticate touches. */
export interface CrossOriginAuthContext extends TenantLogLookupContext, LoginFailureContext, PasswordlessContext, LoginTicketContext {
  readonly bruteForce: BruteForceProtection;
  readonly lookups: IssuanceLookups;
  readonly box: SecretBox;
  /** Custom database scripts, in the tenant's sandbox processes. */
  readonly scripts: ConnectionScripts;
  readonly stores: TenantLogLookupContext['stores'] & LoginFailureContext['stores'] & PasswordlessContext['stores'] & LoginTicketContext['stores'] & { readonly connections: ConnectionStore; readonly users: UserStore };
}

/** A credential type: how it finds the user (undefined: the credentials are wrong) and the connection it used. */
type Verify = (ctx: CrossOriginAuthContext, request: FastifyRequest, tenant: Tenant, client: IssuanceClient, params: Params) => Promise<{ user: UserRow; connection: ConnectionRow }>;

async function databaseConnection(ctx: CrossOriginAuthContext, tenant: Tenant, client: IssuanceClient, name: string): Promise<ConnectionRow> {
  const enabled = await loginConnections(ctx.stores.connections, tenant.id, client.row.client_id);
  const connection = enabled.find((c) => c.name === name && c.strategy === DATABASE_STRATEGY);
  if (!connection) throw oauthErrors.invalidRequest(`Connection does not exist or is not a database connection enabled for the client: ${name}`);
  return connection;
}

/** A password in a database connection, behind brute-force protection as on the login page (../interaction/steps/login.ts). */
function passwordCredentials(connectionName: (tenant: Tenant, params: Params) => string): Verify {
  return async (ctx, request, tenant, client, params) => {
    requireParams(params, 'username', 'password');
    const connection = await databaseConnection(ctx, tenant, client, connectionName(tenant, params));
    const identifier = params.username!;
    const attempt = loginAttempt(tenant, connection.name, identifier, request.ip);
    const log = (outcome: PasswordLoginOutcome) => logPasswordLogin(ctx, request, { client: client.row, connection, identifier, outcome });
    if (await ctx.bruteForce.isBlocked(attempt)) {
      log('blocked_account');
      throw oauthErrors.tooManyAttempts();
    }
    let user: UserRow | undefined;
    try {
      user = await whileClientWaits(request, (signal) => passwordLogin(ctx, tenant.id, connection, identifier, params.password!, signal));
    } catch (error) {
      if (!(error instanceof CustomDatabaseError)) throw error;
      log({ scriptError: error.detail });
      throw error.code === 'unauthorized' ? oauthErrors.unauthorized(error.message) : oauthErrors.accessDenied(error.message);
    }
    if (!user) {
      await recordLoginFailure(ctx, tenant, connection.id, attempt);
      log('wrong_credentials');
      throw wrongPassword();
    }
    await ctx.bruteForce.recordSuccess(attempt);
    log({ user, active: isActive(user) });
    return { user, connection };
  };
}

/** A code /passwordless/start sent for this client (the passwordless OTP grant's rules, ../token/grants/passwordless-otp.ts). */
const otpCredentials: Verify = async (ctx, _request, tenant, client, params) => {
  requireParams(params, 'realm', 'username', 'otp');
  const clientId = client.row.client_id;
  const connection = await passwordlessConnection(ctx, tenant, clientId, params.realm);
  if (!connection) throw oauthErrors.invalidRequest(`Connection does not exist or is not enabled for the client: ${params.realm}`);
  const wrongCode = () => oauthErrors.accessDenied(connection.strategy === SMS_STRATEGY ? 'Wrong phone number or verification code.' : 'Wrong email or verification code.');
  if (!(await verifyEmailCode(ctx, tenant, connection, clientId, params.username!, params.otp!))) throw wrongCode();
  const user = await passwordlessUser(ctx, tenant, connection, params.username!);
  if (!user) throw wrongCode();
  return { user, connection };
};

/** credential_type → how it is verified; looked up in this Map only. */
const CREDENTIAL_TYPES: ReadonlyMap<string, Verify> = new Map([
  [
    PASSWORD_REALM,
    passwordCredentials((_tenant, params) => {
      requireParams(params, 'realm');
      return params.realm!;
    }),
  ],
  [
    PASSWORD,
    passwordCredentials((tenant) => {
      const directory = tenant.settings.default_directory;
      if (!directory) throw oauthErrors.invalidRequest(`Send credential_type ${PASSWORD_REALM} with a realm, or set the tenant's default_directory`);
      return directory;
    }),
  ],
  [PASSWORDLESS_OTP, otpCredentials],
]);

async function crossOriginClient(ctx: CrossOriginAuthContext, tenant: Tenant, params: Params): Promise<IssuanceClient> {
  requireParams(params, 'client_id');
  const client = await ctx.lookups.client(tenant.id, params.client_id!);
  if (!client || !client.browser.crossOriginAuthentication) throw notAllowed();
  return client;
}

/** The page's origin is the client's (or the tenant's own); the bare 403 of ../cors.ts otherwise. */
function originRefusal(request: FastifyRequest, client: IssuanceClient): string | undefined {
  const origin = request.headers.origin;
  if (origin === `https://${request.tenant.domain}`) return undefined;
  if (origin !== undefined && originAllowed([...client.browser.allowedOrigins, ...client.browser.webOrigins], origin)) return undefined;
  return `Origin ${origin ?? ''} is not allowed.`;
}

function credentialType(params: Params): Verify {
  const type = params.credential_type ?? '';
  const verify = CREDENTIAL_TYPES.get(type);
  if (!verify) throw oauthErrors.unsupportedCredentialType('Unknown credential type parameter.');
  return verify;
}

export function coAuthenticateEndpoint(ctx: CrossOriginAuthContext): RouteOptions {
  return {
    method: 'POST',
    url: '/co/authenticate',
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      const { tenant } = request;
      const params = pick(readBody(request), PARAMETERS);
      const client = await crossOriginClient(ctx, tenant, params);
      const refusal = originRefusal(request, client);
      if (refusal !== undefined) return reply.code(403).header('Content-Type', 'text/plain; charset=utf-8').send(refusal);
      const verify = credentialType(params);
      const { user, connection } = await verify(ctx, request, tenant, client, params);
      if (!isActive(user)) throw blockedUser();
      const body = issueLoginTicket(ctx, tenant, reply, { client_id: client.row.client_id, connection: connection.name, user_id: user.user_id });
      return reply.code(200).header('Cache-Control', 'no-store').send(body);
    },
  };
}
