/**
 * The token policy: what a token for an API may hold, decided in one place
 * from the tenant, the client and the API, as node-oidc-provider decides it
 * with `features.resourceIndicators.getResourceServerInfo(ctx, resource,
 * client)` (a resource's `scope`, `accessTokenTTL`, `accessTokenFormat` and
 * `jwt.sign`). Every grant reads it: the user grants (password and
 * password-realm, authorization_code, refresh_token, device code, CIBA,
 * passwordless OTP, MFA, the implicit and hybrid responses) through
 * src/authentication/token/user-tokens.ts, client_credentials directly.
 *
 * An ordinary API gets its own configuration: the scopes it defines, within
 * its `subject_type_authorization` and RBAC settings; its `token_lifetime`,
 * `token_dialect` and `signing_alg`. The exceptions are the rules below,
 * written as data (`TOKEN_POLICY_RULES`), matched on two facts that need no
 * lookup: whether the API is the tenant's Management API (`is_system`) and
 * whether the client is the built-in admin console's (../console/client.ts).
 * A field takes its value from the first matching rule that sets it, else
 * from `ORDINARY`.
 */
import type { Stores } from '../stores.js';
import type { ConnectionRow } from '../rows.js';
import type { AccessTokenFormat } from '../tokens/access-token.js';
import { oauthErrors } from '../../platform/http/errors.js';
import { consoleConnection, isConsoleClient } from '../console/client.js';
import { CONSOLE_TOKEN_LIFETIME, operatorScopes } from '../console/operator.js';
import { CURRENT_USER_SCOPE_SET, CURRENT_USER_SCOPES } from '../management-api/current-user.js';
import type { IssuanceApi, IssuanceGrant, IssuanceLookups } from './lookups.js';

/**
 * How the API scopes of a user's token are decided:
 * - `api`: those the API defines, within its user policy and RBAC (`grantableUserScopes`);
 * - `current_user`: only the `*:current_user*` scopes (../management-api/current-user.ts);
 * - `operator`: the user's RBAC permissions on the API, a user holding none refused (../console/operator.ts).
 */
export type UserScopes = 'api' | 'current_user' | 'operator';

export interface TokenPolicy {
  /** The names of the rules that applied, most specific first (none for an ordinary client and API). */
  readonly rules: readonly string[];
  readonly userScopes: UserScopes;
  /** Seconds an access token may live at most, below the API's `token_lifetime`. */
  readonly maxLifetime: number | undefined;
  /** What the Management API takes a user's token for: a `user` (its `*:current_user*` scopes on itself) or an `operator`. */
  readonly principal: 'user' | 'operator';
  /** `skip`: no consent page, whatever the API and the client's first-party setting. */
  readonly consent: 'ask' | 'skip';
  /** Whether a visitor may sign up through the client (the login page's link, POST /dbconnections/signup). */
  readonly signup: boolean;
  /** The connections a user logs in on through the client: those enabled for it, or the console's database connection. */
  readonly connections: 'enabled' | 'console';
  /** Whether /authorize refuses, before issuing a code, a user whom the token endpoint would refuse every scope. */
  readonly refusedBeforeCode: boolean;
}

type PolicyFields = Omit<TokenPolicy, 'rules'>;

export interface TokenPolicyRule {
  name: string;
  /** The rule applies to the built-in console's client only. */
  client?: 'console';
  /** The rule applies to the tenant's Management API only. */
  api?: 'management';
  set: Partial<PolicyFields>;
}

/** An ordinary client with an ordinary API, or with no API (a token for /userinfo alone). */
export const ORDINARY: TokenPolicy = {
  rules: [],
  userScopes: 'api',
  maxLifetime: undefined,
  principal: 'user',
  consent: 'ask',
  signup: true,
  connections: 'enabled',
  refusedBeforeCode: false,
};

/** The exceptions, most specific first. */
export const TOKEN_POLICY_RULES: readonly TokenPolicyRule[] = [
  {
    // The console's operators: their RBAC permissions on the Management API, for an hour at most.
    name: 'console-management-api',
    client: 'console',
    api: 'management',
    set: { userScopes: 'operator', maxLifetime: CONSOLE_TOKEN_LIFETIME, principal: 'operator' },
  },
  {
    // The service's rule for user tokens on its Management API: `*:current_user*` scopes only.
    name: 'management-api',
    api: 'management',
    set: { userScopes: 'current_user' },
  },
  {
    // The console is the service's own application: nothing to consent to, nobody signs up through it
    // (operators come from the setup link and the Management API), its one database connection, and a
    // user who is not an operator is refused at the console rather than given a code.
    name: 'console',
    client: 'console',
    set: { consent: 'skip', signup: false, connections: 'console', refusedBeforeCode: true },
  },
];

function resolve(console: boolean, management: boolean): TokenPolicy {
  let fields: Partial<PolicyFields> = {};
  const rules: string[] = [];
  for (const rule of TOKEN_POLICY_RULES) {
    if ((rule.client === 'console' && !console) || (rule.api === 'management' && !management)) continue;
    rules.push(rule.name);
    // An earlier (more specific) rule's fields stay over this one's.
    fields = { ...rule.set, ...fields };
  }
  return Object.freeze({ ...ORDINARY, ...fields, rules });
}

/** The four policies the rules can produce, resolved once: a lookup allocates nothing. */
const RESOLVED = {
  ordinary: resolve(false, false),
  management: resolve(false, true),
  console: resolve(true, false),
  consoleManagement: resolve(true, true),
};

/**
 * The policy of the client's tokens for the API: `'management'` names the
 * tenant's Management API without its row (a token the Management API
 * verified); no API is a token for /userinfo alone, or a question about the
 * client alone (consent, signup, connections).
 */
export function tokenPolicy(tenantId: string, clientId: string | undefined, api?: Pick<IssuanceApi, 'row'> | 'management'): TokenPolicy {
  const management = api === 'management' || api?.row.is_system === 1;
  if (isConsoleClient(tenantId, clientId)) return management ? RESOLVED.consoleManagement : RESOLVED.console;
  return management ? RESOLVED.management : RESOLVED.ordinary;
}

/** The access token for the API under the policy: its lifetime, profile, `permissions` claim and signature. */
export function accessTokenFormat(policy: TokenPolicy, api: Pick<IssuanceApi, 'row'>): AccessTokenFormat {
  const { row } = api;
  return {
    lifetime: Math.min(row.token_lifetime, policy.maxLifetime ?? Infinity),
    profile: row.token_dialect.startsWith('rfc9068_profile') ? 'rfc9068' : 'auth0',
    permissions: row.token_dialect.endsWith('_authz'),
    // An HS256 API without a secret (none was ever set) signs with the tenant's key.
    signing: row.signing_alg === 'HS256' && row.signing_secret_enc ? 'HS256' : 'RS256',
  };
}

/**
 * The API scopes a user grant asks for when it names no `scope`: "If you
 * don't request specific scopes, all scopes defined for the audience will be
 * returned" (authentication-api-wire-notes §5.1), within the policy.
 */
export function defaultUserScopes(policy: TokenPolicy, api: IssuanceApi): readonly string[] {
  return policy.userScopes === 'current_user' ? CURRENT_USER_SCOPES : api.scopes;
}

/** What deciding the scopes reads: the cached client grants and the RBAC tables. */
export interface ScopeDeps {
  lookups: Pick<IssuanceLookups, 'grant'>;
  stores: Pick<Stores, 'rbac'>;
}

export interface UserScopeRequest {
  tenantId: string;
  clientId: string;
  userId: string;
  /** The organization a login is for: the roles the user holds in it count too (theirs as its member, their groups'). */
  organizationId?: string;
}

/**
 * The API scopes a user may be given among `candidates`, and the
 * `permissions` claim:
 *
 * - `current_user` and `operator` policies: see `UserScopes`;
 * - `subject_type_authorization.user.policy`: `deny_all` refuses every user
 *   flow; `require_client_grant` needs a client grant of subject_type `user`
 *   for the client, whose scopes bound the token's;
 * - `enforce_policies` (RBAC): only the permissions the user holds for the
 *   API (direct, through roles, through groups' roles, and in an
 *   organization's login the roles held in that organization) that the API
 *   still defines; without it, any scope the API defines (the service's behaviour
 *   for APIs without RBAC).
 *
 * `access_token_authz` and `rfc9068_profile_authz` add every permission the
 * user holds for the API (among those it defines) as the `permissions` claim,
 * whatever was requested (Gatehouse computes it from the RBAC tables whether
 * or not `enforce_policies` is on).
 */
export async function grantableUserScopes(
  deps: ScopeDeps,
  policy: TokenPolicy,
  request: UserScopeRequest,
  api: IssuanceApi,
  candidates: readonly string[],
): Promise<{ scopes: string[]; permissions?: string[] }> {
  const { tenantId, clientId, userId, organizationId } = request;
  if (policy.userScopes === 'operator') return { scopes: await operatorScopes(deps.stores, tenantId, userId, api, candidates) };
  if (policy.userScopes === 'current_user') return { scopes: candidates.filter((s) => CURRENT_USER_SCOPE_SET.has(s)) };
  let scopes = candidates.filter((s) => api.scopeSet.has(s));
  if (api.policies.user === 'deny_all') throw oauthErrors.accessDenied(`The API "${api.row.identifier}" does not allow user access`);
  if (api.policies.user === 'require_client_grant') {
    const grant = await deps.lookups.grant(tenantId, clientId, api, 'user');
    if (!grant) {
      throw oauthErrors.accessDenied(
        `Client is not authorized to access "${api.row.identifier}" on behalf of users. You might probably want to create a "client-grant" with subject_type "user" associated to this API. See: POST /api/v2/client-grants`,
      );
    }
    scopes = scopes.filter((s) => grant.allowedSet.has(s));
  }
  const authz = api.row.token_dialect.endsWith('_authz');
  if (api.row.enforce_policies !== 1 && !authz) return { scopes };
  const held = new Set((await deps.stores.rbac.effectivePermissions(tenantId, userId, api.row.identifier, organizationId)).filter((p) => api.scopeSet.has(p)));
  if (api.row.enforce_policies === 1) scopes = scopes.filter((s) => held.has(s));
  return authz ? { scopes, permissions: api.scopes.filter((s) => held.has(s)) } : { scopes };
}

/**
 * The scopes of a client's own token (client_credentials) for the API: the
 * API's client policy must not be `deny_all`, the client needs a client grant
 * for it, and the requested scopes are cut down to that grant (without a
 * `scope` parameter, everything the grant allows). Error texts:
 * authentication-api-wire-notes §5.1.
 */
export async function grantableClientScopes(
  deps: Pick<ScopeDeps, 'lookups'>,
  tenantId: string,
  clientId: string,
  api: IssuanceApi,
  requested: string | undefined,
): Promise<{ grant: IssuanceGrant; scope: string }> {
  const audience = api.row.identifier;
  if (api.policies.client === 'deny_all') throw oauthErrors.accessDenied(`The API "${audience}" does not allow client access`);
  const grant = await deps.lookups.grant(tenantId, clientId, api);
  if (!grant) {
    throw oauthErrors.accessDenied(
      `Client is not authorized to access "${audience}". You might probably want to create a "client-grant" associated to this API. See: POST /api/v2/client-grants`,
    );
  }
  if (requested === undefined) return { grant, scope: grant.allowedScope };
  const wanted = new Set(requested.split(' '));
  return { grant, scope: grant.allowed.filter((s) => wanted.has(s)).join(' ') };
}

/**
 * The connections a user logs in on through the client, as the policy says:
 * those enabled for it, or for the console the one database connection of
 * operators (`consoleConnection`). The Management API never asks this (a
 * connection's `enabled_clients` is the stored configuration alone).
 */
export async function loginConnections(
  connections: Pick<Stores['connections'], 'enabledForClient' | 'getByName' | 'list'>,
  tenantId: string,
  clientId: string,
): Promise<ConnectionRow[]> {
  if (tokenPolicy(tenantId, clientId).connections === 'enabled') return connections.enabledForClient(tenantId, clientId);
  const connection = await consoleConnection(connections, tenantId);
  return connection ? [connection] : [];
}
