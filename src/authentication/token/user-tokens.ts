/**
 * The tokens of a grant made on a user's behalf (password, password-realm;
 * later authorization_code and refresh_token), as the service issues them
 * (authentication-api-wire-notes §5, §6):
 *
 * - with an audience (or the tenant's default audience): a JWT for that API,
 *   `aud` `[API, https://{domain}/userinfo]` when `openid` is granted; the API
 *   must exist, but user grants need no client grant;
 * - without one: a token for /userinfo alone (src/domain/tokens/userinfo-token.ts);
 * - an ID token when `openid` is granted.
 *
 * Scopes: the OIDC scopes requested (`openid`, `profile`, `email`) plus the
 * requested API scopes the token policy grants the user
 * (src/domain/issuance/token-policy.ts: the Management API's
 * `*:current_user*` rule, the console's operators, user access policies,
 * RBAC); with no `scope` parameter, every scope the policy offers ("If you
 * don't request specific scopes, all scopes defined for the audience will be
 * returned") and no OIDC scope. The policy also sets the access token's
 * lifetime, profile and signature. `offline_access` is
 * granted, with a refresh token, only when the client may use the
 * refresh_token grant and the API (if any) allows offline access
 * (./refresh-tokens.ts); otherwise it is dropped.
 */
import type { IssuanceApi, IssuanceClient } from '../../domain/issuance/lookups.js';
import { lifetimeOf } from '../../domain/lifetimes.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { issueAccessToken } from '../../domain/tokens/access-token.js';
import { issueIdToken } from '../../domain/tokens/id-token.js';
import { issueUserinfoAccessToken, userinfoAudience } from '../../domain/tokens/userinfo-token.js';
import type { UserRow } from '../../domain/users/model.js';
import type { TokenResponse } from './grant.js';
import { issueRefreshToken, OFFLINE_ACCESS, offlineAccessAllowed } from './refresh-tokens.js';
import { tokenTypeOf, type Confirmation } from '../../domain/tokens/confirmation.js';
import type { TokenOrganization } from '../../domain/organizations/login.js';
import { changedScopes, type TokenChanges } from '../../domain/actions-runtime/triggers/post-login.js';
import { accessTokenFormat, defaultUserScopes, grantableUserScopes, tokenPolicy, type ScopeDeps, type TokenPolicy } from '../../domain/issuance/token-policy.js';
import { audienceApi } from '../../domain/issuance/audience.js';
import type { IssuanceLookups } from '../../domain/issuance/lookups.js';
import type { AccessTokenContext } from '../../domain/tokens/access-token.js';
import type { IdTokenContext } from '../../domain/tokens/id-token.js';
import type { UserinfoTokenContext } from '../../domain/tokens/userinfo-token.js';
import type { RefreshTokenContext } from './refresh-tokens.js';

/** The OIDC scopes Gatehouse grants: those whose claims it can give (OIDC Core §5.4). */
export const OIDC_SCOPES: ReadonlySet<string> = new Set(['openid', 'profile', 'email']);

export interface UserTokenRequest {
  tenant: Tenant;
  client: IssuanceClient;
  user: UserRow;
  /** The `audience` parameter, if sent. */
  audience: string | undefined;
  /** The `scope` parameter, if sent. */
  scope: string | undefined;
  /** `gty` of the access token: the service sets it for password and refresh_token grants only (wire notes §6). */
  grantType?: string;
  nonce?: string;
  /** The ID token's `auth_time` (seconds since the epoch) and `sid`, for grants that follow a login session. */
  authTime?: number;
  sid?: string;
  /** The ID token's `amr` (`["mfa"]` after a second factor). */
  amr?: readonly string[];
  /** The organization the grant is for: `org_id` (and `org_name`) in both tokens, kept by the refresh token. */
  organization?: TokenOrganization;
  /**
   * Produces the response's refresh token once the grant is known, whatever
   * the scope: the refresh_token grant's rotation. Absent: a new token family
   * when `offline_access` is granted.
   */
  refreshToken?: (granted: { audience: string | undefined; scope: string }) => Promise<string | undefined>;
  /** The DPoP key the access token is bound to. */
  confirmation?: Confirmation;
  /** What the post-login actions changed in the tokens: claims, scopes. */
  actions?: TokenChanges;
}

/**
 * What token issuance needs of RBAC storage (src/rbac): the distinct
 * permission names a user holds for one API, directly, through their roles,
 * and through their groups' roles.
 */
export interface EffectivePermissions {
  effectivePermissions(tenantId: string, userId: string, resourceServerIdentifier: string, organizationId?: string): Promise<string[]>;
}

/** What deciding a user grant's audience and scopes reads: the API (cached) and the token policy's inputs. */
export interface UserGrantContext extends ScopeDeps {
  readonly lookups: Pick<IssuanceLookups, 'grant' | 'resourceServer'>;
}

/** What issuing a user's tokens touches: the grant's decision, the signing keys, the clock, refresh tokens. */
export interface UserTokenContext extends UserGrantContext, AccessTokenContext, IdTokenContext, UserinfoTokenContext, RefreshTokenContext {
  readonly stores: UserGrantContext['stores'] & RefreshTokenContext['stores'];
}

/** What a user grant resolves to: the API (if any), its token policy and the scopes granted. */
interface ResolvedGrant {
  audience: string | undefined;
  api: { issuance: IssuanceApi; policy: TokenPolicy } | undefined;
  granted: string[];
  /** The OIDC scopes among `granted`. */
  oidc: string[];
  /** The `permissions` claim of `*_authz` token dialects: every permission the user holds for the API. */
  permissions?: string[];
}

type GrantRequest = Pick<UserTokenRequest, 'tenant' | 'client' | 'audience' | 'scope' | 'organization'> & { userId: string };

async function resolveGrant(ctx: UserGrantContext, request: GrantRequest, allowOffline: boolean): Promise<ResolvedGrant> {
  const { tenant, client } = request;
  const audience = request.audience ?? tenant.settings.default_audience;
  const requested = request.scope === undefined ? undefined : request.scope.split(' ').filter((s) => s !== '');
  const oidc = unique((requested ?? []).filter((s) => OIDC_SCOPES.has(s)));
  const offline = (api: IssuanceApi | undefined) =>
    allowOffline && requested?.includes(OFFLINE_ACCESS) === true && offlineAccessAllowed(client, api) ? [OFFLINE_ACCESS] : [];
  if (!audience) return { audience: undefined, api: undefined, granted: unique([...oidc, ...offline(undefined)]), oidc };
  const api = await audienceApi(ctx.lookups, tenant.id, audience);
  const policy = tokenPolicy(tenant.id, client.row.client_id, api);
  const candidates = requested === undefined ? defaultUserScopes(policy, api) : requested.filter((s) => !OIDC_SCOPES.has(s));
  const scopeRequest = { tenantId: tenant.id, clientId: client.row.client_id, userId: request.userId, ...(request.organization && { organizationId: request.organization.id }) };
  const { scopes, permissions } = await grantableUserScopes(ctx, policy, scopeRequest, api, candidates);
  return { audience, api: { issuance: api, policy }, granted: unique([...oidc, ...scopes, ...offline(api)]), oidc, ...(permissions && { permissions }) };
}

/** The scopes a request would be granted (for consent: what to ask the user for), and the audience they are for. */
export async function scopesToGrant(ctx: UserGrantContext, request: GrantRequest): Promise<{ audience: string | undefined; scopes: string[] }> {
  const { audience, granted } = await resolveGrant(ctx, request, true);
  return { audience, scopes: granted };
}

async function issueAccess(ctx: UserTokenContext, request: UserTokenRequest, grant: ResolvedGrant, userinfoLifetime?: number): Promise<{ token: string; expiresIn: number }> {
  const { tenant, client, user } = request;
  const scope = grant.granted.join(' ');
  if (grant.api) {
    return issueAccessToken(ctx, {
      tenant,
      resourceServer: grant.api.issuance.row,
      format: accessTokenFormat(grant.api.policy, grant.api.issuance),
      subject: user.user_id,
      clientId: client.row.client_id,
      scope,
      ...(request.grantType !== undefined && { grantType: request.grantType }),
      ...(grant.oidc.includes('openid') && { extraAudiences: [userinfoAudience(tenant)] }),
      ...(grant.permissions !== undefined && { permissions: grant.permissions }),
      ...(request.confirmation && { confirmation: request.confirmation }),
      ...(request.organization && { organization: request.organization }),
      ...(request.actions && { customClaims: request.actions.accessTokenClaims }),
    });
  }
  return issueUserinfoAccessToken(ctx, {
    tenant,
    userId: user.user_id,
    clientId: client.row.client_id,
    scope,
    ...(request.grantType !== undefined && { grantType: request.grantType }),
    ...(userinfoLifetime !== undefined && { lifetime: userinfoLifetime }),
    ...(request.confirmation && { confirmation: request.confirmation }),
  });
}

function idToken(ctx: UserTokenContext, request: UserTokenRequest, granted: readonly string[], hashes: { accessToken?: string; code?: string } = {}): Promise<string> {
  return issueIdToken(ctx, {
    tenant: request.tenant,
    client: request.client,
    user: request.user,
    scopes: granted,
    ...(request.nonce !== undefined && { nonce: request.nonce }),
    ...(request.authTime !== undefined && { authTime: request.authTime }),
    ...(request.sid !== undefined && { sid: request.sid }),
    ...(request.amr !== undefined && { amr: request.amr }),
    ...(request.organization && { organization: request.organization }),
    ...(request.actions && { customClaims: request.actions.idTokenClaims }),
    ...hashes,
  });
}

export async function issueUserTokens(ctx: UserTokenContext, request: UserTokenRequest): Promise<TokenResponse> {
  const grant = withActionScopes(await resolveGrant(ctx, { ...request, userId: request.user.user_id }, true), request.actions);
  const { token: accessToken, expiresIn } = await issueAccess(ctx, request, grant);
  const { granted } = grant;

  const issued = { audience: grant.audience || undefined, scope: granted.join(' ') };
  const refreshToken = request.refreshToken
    ? await request.refreshToken(issued)
    : granted.includes(OFFLINE_ACCESS)
      ? await issueRefreshToken(ctx, {
          tenant: request.tenant,
          client: request.client,
          userId: request.user.user_id,
          ...issued,
          ...(request.confirmation && { confirmation: request.confirmation }),
          ...(request.organization && { organizationId: request.organization.id }),
        })
      : undefined;

  // Members in the service's order: access_token, refresh_token, id_token, scope, expires_in, token_type.
  const body: Partial<TokenResponse> = { access_token: accessToken };
  if (refreshToken !== undefined) body.refresh_token = refreshToken;
  // at_hash is optional at the token endpoint (OIDC Core §3.1.3.6); the service leaves it out of password-grant ID tokens.
  if (granted.includes('openid')) body.id_token = await idToken(ctx, request, granted);
  if (granted.length > 0) body.scope = granted.join(' ');
  return { ...body, expires_in: expiresIn, token_type: tokenTypeOf(request.confirmation) } as TokenResponse;
}


/**
 * The tokens of an implicit or hybrid authorization response (OIDC Core
 * §3.2.2.5, §3.3.2.5): an access token when `token` was asked for, an ID
 * token when `id_token` was, never a refresh token (`offline_access` is
 * dropped). The ID token's `at_hash` and `c_hash` bind it to the access
 * token and code it travels with (§3.3.2.11).
 */
export async function issueFrontChannelTokens(
  ctx: UserTokenContext,
  request: UserTokenRequest,
  wanted: { accessToken: boolean; idToken: boolean; code?: string },
): Promise<Record<string, string>> {
  const grant = withActionScopes(await resolveGrant(ctx, { ...request, userId: request.user.user_id }, false), request.actions);
  const response: Record<string, string> = {};
  let accessToken: string | undefined;
  if (wanted.accessToken) {
    const issued = await issueAccess(ctx, request, grant, lifetimeOf(request.tenant, 'front_channel_userinfo_token'));
    accessToken = issued.token;
    Object.assign(response, { access_token: issued.token, token_type: 'Bearer', expires_in: String(issued.expiresIn) });
    if (grant.granted.length > 0) response.scope = grant.granted.join(' ');
  }
  if (wanted.idToken) {
    const granted = grant.granted.includes('openid') ? grant.granted : ['openid', ...grant.granted];
    response.id_token = await idToken(ctx, request, granted, {
      ...(accessToken !== undefined && { accessToken }),
      ...(wanted.code !== undefined && { code: wanted.code }),
    });
  }
  return response;
}

function withActionScopes(grant: ResolvedGrant, actions: TokenChanges | undefined): ResolvedGrant {
  return actions ? { ...grant, granted: changedScopes(grant.granted, actions) } : grant;
}

function unique(scopes: readonly string[]): string[] {
  return [...new Set(scopes)];
}
