/**
 * The tokens of a grant made on a user's behalf (password, password-realm;
 * later authorization_code and refresh_token), as the service issues them
 * (authentication-api-wire-notes §5, §6):
 *
 * - with an audience (or the tenant's default audience): a JWT for that API,
 *   `aud` `[API, https://{domain}/userinfo]` when `openid` is granted; the API
 *   must exist, but user grants need no client grant;
 * - without one: a token for /userinfo alone (src/tokens/userinfo-token.ts);
 * - an ID token when `openid` is granted.
 *
 * Scopes: the OIDC scopes requested (`openid`, `profile`, `email`) plus the
 * requested scopes the API defines; with no `scope` parameter, every scope
 * the API defines ("If you don't request specific scopes, all scopes defined
 * for the audience will be returned") and no OIDC scope. `offline_access` is
 * granted, with a refresh token, only when the client may use the
 * refresh_token grant and the API (if any) allows offline access
 * (./refresh-tokens.ts); otherwise it is dropped.
 */
import type { IssuanceApi, IssuanceClient } from '../../cache/issuance.js';
import type { AppContext } from '../../context.js';
import { oauthErrors } from '../../http/errors.js';
import type { Tenant } from '../../tenants/tenant.js';
import { issueAccessToken } from '../../tokens/access-token.js';
import { issueIdToken } from '../../tokens/id-token.js';
import { issueUserinfoAccessToken, userinfoAudience } from '../../tokens/userinfo-token.js';
import type { UserRow } from '../../users/model.js';
import type { TokenResponse } from './grant.js';
import { issueRefreshToken, OFFLINE_ACCESS, offlineAccessAllowed } from './refresh-tokens.js';

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
  /** `gty` of the access token. */
  grantType: string;
  nonce?: string;
  /** The ID token's `auth_time` (seconds since the epoch) and `sid`, for grants that follow a login session. */
  authTime?: number;
  sid?: string;
  /**
   * Produces the response's refresh token once the grant is known, whatever
   * the scope: the refresh_token grant's rotation. Absent: a new token family
   * when `offline_access` is granted.
   */
  refreshToken?: (granted: { audience: string | undefined; scope: string }) => Promise<string | undefined>;
}

export async function issueUserTokens(ctx: AppContext, request: UserTokenRequest): Promise<TokenResponse> {
  const { tenant, client, user } = request;
  const clientId = client.row.client_id;
  const audience = request.audience ?? tenant.settings.default_audience;
  const requested = request.scope === undefined ? undefined : request.scope.split(' ').filter((s) => s !== '');
  const oidc = (requested ?? []).filter((s) => OIDC_SCOPES.has(s));
  const offline = (api: IssuanceApi | undefined) =>
    requested?.includes(OFFLINE_ACCESS) === true && offlineAccessAllowed(client, api) ? [OFFLINE_ACCESS] : [];

  let accessToken: string;
  let expiresIn: number;
  let granted: string[];
  if (audience) {
    const api = await ctx.lookups.resourceServer(tenant.id, audience);
    if (!api) throw oauthErrors.accessDenied(`Service not enabled within domain: ${audience}`);
    const defined = new Set(api.scopes);
    const apiScopes = requested === undefined ? [...api.scopes] : requested.filter((s) => defined.has(s) && !OIDC_SCOPES.has(s));
    granted = unique([...oidc, ...apiScopes, ...offline(api)]);
    ({ token: accessToken, expiresIn } = await issueAccessToken(ctx, {
      tenant,
      resourceServer: api.row,
      subject: user.user_id,
      clientId,
      scope: granted.join(' '),
      grantType: request.grantType,
      ...(oidc.includes('openid') && { extraAudiences: [userinfoAudience(tenant)] }),
    }));
  } else {
    granted = unique([...oidc, ...offline(undefined)]);
    ({ token: accessToken, expiresIn } = await issueUserinfoAccessToken(ctx, {
      tenant,
      userId: user.user_id,
      clientId,
      scope: granted.join(' '),
      grantType: request.grantType,
    }));
  }

  const issued = { audience: audience || undefined, scope: granted.join(' ') };
  const refreshToken = request.refreshToken
    ? await request.refreshToken(issued)
    : granted.includes(OFFLINE_ACCESS)
      ? await issueRefreshToken(ctx, { tenant, client, userId: user.user_id, ...issued })
      : undefined;

  // Members in the service's order: access_token, refresh_token, id_token, scope, expires_in, token_type.
  const body: Partial<TokenResponse> = { access_token: accessToken };
  if (refreshToken !== undefined) body.refresh_token = refreshToken;
  if (granted.includes('openid')) {
    // at_hash is optional at the token endpoint (OIDC Core §3.1.3.6); the service leaves it out of password-grant ID tokens.
    body.id_token = await issueIdToken(ctx, {
      tenant,
      client,
      user,
      scopes: granted,
      ...(request.nonce !== undefined && { nonce: request.nonce }),
      ...(request.authTime !== undefined && { authTime: request.authTime }),
      ...(request.sid !== undefined && { sid: request.sid }),
    });
  }
  if (granted.length > 0) body.scope = granted.join(' ');
  return { ...body, expires_in: expiresIn, token_type: 'Bearer' } as TokenResponse;
}

function unique(scopes: readonly string[]): string[] {
  return [...new Set(scopes)];
}
