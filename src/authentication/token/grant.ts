import type { ConnectionScripts } from '../../domain/connections/scripts.js';
import type { Config } from '../../platform/config.js';
import type { ActionsRuntime } from '../../domain/actions-runtime/runtime.js';
import type { DeployedActions } from '../../domain/actions/deployed.js';
import type { FastifyRequest } from 'fastify';
import type { Tenant } from '../../domain/tenants/tenant.js';
import type { AuthenticatedClient } from '../client-auth/method.js';
import type { Params } from '../params.js';
import type { Logger } from 'pino';
import type { BruteForceProtection } from '../../domain/brute-force.js';
import type { IssuanceLookups } from '../../domain/issuance/lookups.js';
import type { Keyring } from '../../domain/keys/keyring.js';
import type { Stores } from '../../domain/stores.js';
import type { SecretBox } from '../../platform/crypto/secret-box.js';
import type { Mailer } from '../../platform/mail/index.js';
import type { Confirmation, TokenType } from '../../domain/tokens/confirmation.js';
import type { ConnectionRow } from '../../domain/rows.js';
import type { UserRow } from '../../domain/users/model.js';

/** The token endpoint's success body (RFC 6749 §5.1), members in the service's order. */
export interface TokenResponse {
  access_token: string;
  refresh_token?: string;
  id_token?: string;
  scope?: string;
  expires_in: number;
  token_type: TokenType;
  /** What the token is, for token exchanges (RFC 8693 §2.2.1; Token Vault). */
  issued_token_type?: string;
  /** The mfa-recovery-code grant's new recovery code (wire notes §5: "MFA recovery adds recovery_code"). */
  recovery_code?: string;
}

/**
 * What a grant's `handle` may touch (as ../client-auth/method.ts
 * ClientAuthContext is a method's): the clock, the signing keys, sealing,
 * the cached issuance lookups, brute-force counters and the mail they
 * send (a blocked account's notice), and these stores. Each grant's helpers declare the
 * part they use; a grant that needs more adds it here, where every caller
 * sees it.
 */
export interface GrantHandlerContext {
  readonly now: () => number;
  readonly config: Config;
  /** The tenant's actions (credentials-exchange, post-login, custom token exchange) and what is deployed of them. */
  readonly actions: ActionsRuntime;
  readonly deployedActions: DeployedActions;
  /** Custom database scripts, in the tenant's sandbox processes. */
  readonly scripts: ConnectionScripts;
  readonly logger: Logger;
  readonly box: SecretBox;
  readonly keyring: Keyring;
  readonly lookups: IssuanceLookups;
  readonly bruteForce: BruteForceProtection;
  readonly mailer: Mailer;
  readonly stores: Pick<
    Stores,
    | 'authorizationCodes'
    | 'backchannelAuthRequests'
    | 'connections'
    | 'deviceCodes'
    | 'emailProviders'
    | 'emailTemplates'
    | 'mfa'
    | 'oneTimeUses'
    | 'organizationMembers'
    | 'organizations'
    | 'passwordless'
    | 'rbac'
    | 'refreshTokens'
    | 'tokenExchangeProfiles'
    | 'upstreamTokenSets'
    | 'connectionKeys'
    | 'users'
  >;
}

export interface GrantContext {
  ctx: GrantHandlerContext;
  tenant: Tenant;
  request: FastifyRequest;
  params: Params;
  client: AuthenticatedClient;
  /** The key the client proved possession of (DPoP), which the access token must be bound to. */
  confirmation?: Confirmation;
  /**
   * What the grant learnt of the login it decides, filled in as it goes so
   * that a failure's tenant log event carries it too (../tenant-log.ts): the
   * connection once resolved, the user (or only their id) once found.
   */
  login: LoginFacts;
}

export interface LoginFacts {
  connection?: ConnectionRow;
  user?: UserRow;
  userId?: string;
}

/**
 * One grant type of POST /oauth/token, in its own module under ./grants/ and
 * listed in the registry (../registries.ts), from which discovery's
 * `grant_types_supported` is derived.
 */
export interface GrantHandler {
  grantType: string;
  /**
   * The body parameters the grant reads besides `grant_type` and client
   * authentication's: only these reach `handle`, each at most once (a
   * repeated one is refused); any other parameter is ignored.
   */
  parameters: readonly string[];
  /** Whether the client must have authenticated with a credential (not client_id alone). */
  requiresConfidentialClient: boolean;
  /**
   * Whether this request may use the grant without the client listing it in
   * `grant_types` (a variant the client enables by another setting, which
   * `handle` checks: Native Social Login); default never.
   */
  unlisted?(params: Params): boolean;
  handle(grant: GrantContext): Promise<TokenResponse>;
  /** Discovery members the grant brings with it (its own endpoints), from the issuer URL (with its trailing slash). */
  discovery?(issuer: string): Record<string, unknown>;
}
