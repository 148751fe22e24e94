/**
 * Login as an ordered list of interaction steps, in the manner of
 * node-oidc-provider's interaction policy: /authorize validates and keeps the
 * request, then each step in turn decides whether it has something to do for
 * this request (log in; later MFA, choose an organization; consent). The
 * first one that has sends the browser to its page (or, under
 * `prompt=none`, the step's error back to the client); when the user
 * completes it, the policy runs again from the top. When no step has
 * anything left to do, the authorization response is sent.
 *
 * A step is one module (./steps/) and one line in the list (../registries.ts);
 * its pages are its own routes.
 */
import type { CaptchaVerifier } from '../../domain/attack-protection/captcha.js';
import type { PhoneBackoff } from '../../domain/attack-protection/phone-backoff.js';
import type { ConnectionScripts } from '../../domain/connections/scripts.js';
import type { ActionsRuntime } from '../../domain/actions-runtime/runtime.js';
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { ConnectionRow } from '../../domain/connections/model.js';
import type { Logger } from 'pino';
import type { BruteForceProtection } from '../../domain/brute-force.js';
import type { IssuanceLookups } from '../../domain/issuance/lookups.js';
import type { Keyring } from '../../domain/keys/keyring.js';
import type { TenantLogs } from '../../domain/logs/tenant-logs.js';
import type { Stores } from '../../domain/stores.js';
import type { Config } from '../../platform/config.js';
import type { FormTokens } from '../../platform/crypto/form-tokens.js';
import type { SecretBox } from '../../platform/crypto/secret-box.js';
import type { Mailer } from '../../platform/mail/index.js';
import type { RateLimiter } from '../../platform/rate-limit/rate-limiter.js';
import type { IssuanceClient } from '../../domain/issuance/lookups.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import type { AuthorizeRequest } from '../authorize/request.js';
import type { DbConnectionsService } from '../dbconnections/service.js';
import type { AuthorizationErrorCode } from '../errors.js';
import type { Authenticated, Sessions } from './sessions.js';
import type { Transactions } from './transactions.js';

/** One authorization request on its way through the steps. */
export interface Interaction {
  tenant: Tenant;
  client: IssuanceClient;
  request: AuthorizeRequest;
  /** This browser's binding value (`__Host-gh_browser`). */
  browser: string;
  /** The transaction id, once the request is kept server-side (undefined at /authorize). */
  transactionId?: string;
  /** The logged-in user this request is answered for, when there is one. */
  authenticated?: Authenticated;
  /** Steps the user completed during this request: they are not asked again. */
  completed: readonly string[];
  /** The request's Cookie header, for steps that read a cookie of their own (MFA's remembered browser); absent where none was read. */
  cookies?: string;
}

/**
 * What a step, a protocol's response and a connection login may touch
 * through `StepDeps.ctx` (as ../client-auth/method.ts ClientAuthContext is a
 * method's): each module's helpers declare the part they use; a step that
 * needs more adds it here, where every caller sees it.
 */
export interface InteractionContext {
  /** The tenant's actions: post-login runs at the end of an interactive login. */
  readonly actions: ActionsRuntime;
  /** Connections' scripts (custom databases, `oauth2` profiles), in the tenant's sandbox processes. */
  readonly scripts: ConnectionScripts;
  readonly config: Config;
  readonly logger: Logger;
  readonly now: () => number;
  readonly box: SecretBox;
  formTokens(purpose: string): FormTokens;
  readonly keyring: Keyring;
  readonly lookups: IssuanceLookups;
  readonly bruteForce: BruteForceProtection;
  /** Checks bot detection's CAPTCHA tokens with their provider. */
  readonly captcha: CaptchaVerifier;
  /** Spacing of text messages to one number (phone provider protection). */
  readonly phoneBackoff: PhoneBackoff;
  readonly rateLimiter: RateLimiter;
  readonly mailer: Mailer;
  readonly tenantLogs: TenantLogs;
  readonly stores: Pick<
    Stores,
    | 'authorizationCodes'
    | 'authorizeTransactions'
    | 'backchannelAuthRequests'
    | 'backchannelLogout'
    | 'captchaSettings'
    | 'connections'
    | 'consentGrants'
    | 'customDomains'
    | 'deviceCodes'
    | 'emailProviders'
    | 'emailTemplates'
    | 'guardian'
    | 'guardianDuo'
    | 'mfa'
    | 'oneTimeUses'
    | 'organizationConnections'
    | 'organizationDiscoveryDomains'
    | 'organizationInvitations'
    | 'organizationMembers'
    | 'organizations'
    | 'passwordless'
    | 'pushedRequests'
    | 'rbac'
    | 'refreshTokens'
    | 'roles'
    | 'samlpSessions'
    | 'sessions'
    | 'uiSettings'
    | 'upstreamTokenSets'
    | 'connectionKeys'
    | 'users'
    | 'riskAssessments'
    | 'mfaRememberEpochs'
  >;
}

/** What the steps work with. */
export interface StepDeps<C extends InteractionContext = InteractionContext> {
  ctx: C;
  sessions: Sessions;
  transactions: Transactions;
  dbconnections: DbConnectionsService;
  /** The steps, in order (../registries.ts `interactionSteps`). */
  steps: readonly InteractionStep[];
  /** The answers of other protocols' requests (../registries.ts `protocolResponses`). */
  protocols: readonly ProtocolResponse[];
  /** How a login through a federated connection starts, by strategy (../registries.ts `connectionLogins`). */
  connectionLogins: readonly ConnectionLogin[];
}

/**
 * The Authentication API's half of a federated connection strategy (its
 * options and user ids are the domain's: src/domain/connections/strategies/):
 * how the browser is sent to the upstream identity provider for a
 * transaction. The upstream's answer comes back to the strategy's callback
 * routes, which verify it, make or refresh the user, and finish the
 * transaction through the sealed hop of ../connections/hop.ts, so that only
 * the browser that started the login completes it.
 */
export interface ConnectionLogin {
  /** The strategy it logs in through (`samlp`, `oidc` …). */
  readonly strategy: string;
  /**
   * Sends the browser to the upstream for `interaction` (its transaction id
   * set). `fromForm`: answering a post of the login page, whose CSP lets a
   * form redirect only to this origin and the application's.
   */
  start(deps: StepDeps, interaction: Interaction, reply: FastifyReply, connection: ConnectionRow, options: { fromForm?: boolean }): Promise<FastifyReply>;
  /** The email domains that send a login to this connection (home realm discovery, `domain_aliases`). */
  domains(connection: ConnectionRow): readonly string[];
  /** Its own endpoints (SAML's SP metadata). */
  routes(deps: StepDeps): RouteOptions[];
  /**
   * Its part of the one callback URL, `/login/callback` (GET and POST, shared
   * by every strategy as the service's is): `claims` says whether a request
   * is its answer (the first login that claims it handles it), `handle`
   * verifies it and sends the browser on through the sealed hop.
   */
  callback: {
    claims(request: FastifyRequest): boolean;
    handle(deps: StepDeps, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply>;
  };
}

/**
 * How a request of another protocol (`AuthorizeRequest.protocol`, e.g. a
 * SAML AuthnRequest) is answered once the steps are done, in place of the
 * authorization response.
 */
export interface ProtocolResponse {
  /** `AuthorizeRequest.protocol.name` of the requests it answers. */
  readonly name: string;
  /** Steps that do not apply to its requests (consent is about OAuth scopes). */
  readonly skipsSteps: readonly string[];
  /** Sends the answer for the logged-in user (`interaction.authenticated`); the transaction is already spent. */
  respond(deps: StepDeps, reply: FastifyReply, interaction: Interaction): Promise<FastifyReply>;
}

export interface InteractionStep {
  readonly name: string;
  /** The page the browser is sent to when the step has something to do (the policy adds `?state=`, the transaction). */
  page(interaction: Interaction): string;
  /** The authorization error when the step has something to do under `prompt=none` (OIDC Core §3.1.2.6). */
  readonly promptNone: { error: AuthorizationErrorCode; description: string };
  /** Whether the step has something to do for this interaction (asked only while it is not completed). */
  needed(deps: StepDeps, interaction: Interaction): Promise<boolean>;
  /** The step's pages. */
  routes(deps: StepDeps): RouteOptions[];
}
