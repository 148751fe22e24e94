/**
 * The refresh_token grant (RFC 6749 §6; authentication-api-wire-notes §5.1)
 * as a pipeline of named steps: find the token (it must be the client's, not
 * revoked, not expired), refuse a deleted or blocked user, narrow the scope,
 * use the token (rotation or not), issue the tokens. Every refusal of the
 * token itself is 403 `invalid_grant` "Unknown or invalid refresh token.", so
 * the answer does not tell a stolen token's state.
 *
 * Rotation (`refresh_token.rotation_type: rotating`, OAuth 2.0 Security BCP
 * §4.14.2): each use marks the token rotated (one conditional UPDATE, so of
 * two concurrent uses one rotates and the other counts as reuse) and returns
 * a successor in the same family. A rotated token presented again within
 * `leeway` seconds of its rotation (a lost response, parallel requests) is
 * accepted and gets another new token of the family; later, it is taken for
 * a stolen token: the whole family is revoked, the newest token included.
 * Non-rotating tokens keep working until revoked or expired; the response
 * has no refresh_token.
 *
 * The post-login actions run on the exchange, as the service runs them
 * (`event.transaction.protocol` is `oauth2-refresh-token`, where
 * `api.redirect.canRedirect()` is false and a deny is 403 `access_denied`,
 * actions-wire-notes §2.3): their claims and scopes are the new tokens'.
 * `api.multifactor.enable` asks nothing here: the second factor belongs to
 * the login that issued the token.
 *
 * Not transactional: a failure after the rotation (e.g. the API was deleted
 * meanwhile) leaves the presented token rotated without a successor.
 */
import type { AuthenticatedClient } from '../../client-auth/method.js';
import { oauthErrors } from '../../../platform/http/errors.js';
import type { RefreshTokenRow } from '../../../domain/rows.js';
import type { Tenant } from '../../../domain/tenants/tenant.js';
import { requireParams, type Params } from '../../params.js';
import type { GrantContext, GrantHandler, GrantHandlerContext, TokenResponse } from '../grant.js';
import { idleExpiry, isExpired, issueRefreshToken, REFRESH_TOKEN_GRANT, refreshTokenSettings, type RefreshTokenSettings } from '../refresh-tokens.js';
import { issueUserTokens } from '../user-tokens.js';
import { secretHash } from '../../../domain/secrets.js';
import { isoAt } from '../../../platform/clock.js';
import { requireActiveUser } from '../../../domain/users/active-user.js';
import { grantOrganization } from '../organization.js';
import { runPostLogin } from '../../actions/post-login.js';
import { endUserIp } from '../../end-user-ip.js';

const unknownToken = () => oauthErrors.invalidGrant('Unknown or invalid refresh token.');


/** The presented token when it is the client's, not revoked and not expired. */
async function findToken(ctx: GrantHandlerContext, tenant: Tenant, client: AuthenticatedClient, params: Params): Promise<RefreshTokenRow> {
  const row = await ctx.stores.refreshTokens.find(tenant.id, secretHash(params.refresh_token!));
  if (!row || row.client_id !== client.client.row.client_id || row.revoked_at !== null || isExpired(row, isoAt(ctx.now()))) throw unknownToken();
  return row;
}

/** A deleted user's tokens are gone with the user (cascade); the check also covers a race with the deletion. */
const userRefusals = { missing: unknownToken, blocked: () => oauthErrors.invalidGrant('user is blocked') };

/** RFC 6749 §6: the requested scope "MUST NOT include any scope not originally granted"; absent, the original scope. */
function narrowScope(row: RefreshTokenRow, params: Params): string {
  if (!params.scope) return row.scope;
  const original = new Set(row.scope.split(' '));
  const requested = [...new Set(params.scope.split(' ').filter((s) => s !== ''))];
  const extra = requested.filter((s) => !original.has(s));
  if (extra.length > 0) throw oauthErrors.invalidScope(`The requested scope exceeds the granted scope: ${extra.join(' ')}`);
  return requested.join(' ');
}

/** A successor is to be issued in this family, or (non-rotating) none. */
type Successor = { id: string; expiresAt: string | null } | undefined;

/** A rotated token presented again: accepted within the leeway, otherwise the family is revoked. */
async function reuse(ctx: GrantHandlerContext, tenant: Tenant, row: RefreshTokenRow, settings: RefreshTokenSettings): Promise<Successor> {
  if (ctx.now() < Date.parse(row.rotated_at!) + settings.leeway * 1000) return { id: row.family_id, expiresAt: row.expires_at };
  await ctx.stores.refreshTokens.revokeFamily(tenant.id, row.family_id, isoAt(ctx.now()));
  throw unknownToken();
}

async function useToken(ctx: GrantHandlerContext, tenant: Tenant, row: RefreshTokenRow, settings: RefreshTokenSettings): Promise<Successor> {
  const store = ctx.stores.refreshTokens;
  const now = isoAt(ctx.now());
  if (row.rotated_at !== null) return reuse(ctx, tenant, row, settings);
  if (settings.rotation_type !== 'rotating') {
    if (!(await store.touch(tenant.id, row.id_hash, now, idleExpiry(settings, ctx.now())))) throw unknownToken();
    return undefined;
  }
  if (await store.rotate(tenant.id, row.id_hash, now)) return { id: row.family_id, expiresAt: row.expires_at };
  // Another request rotated (or revoked) it since it was read.
  const current = await store.find(tenant.id, row.id_hash);
  if (!current || current.revoked_at !== null) throw unknownToken();
  return reuse(ctx, tenant, current, settings);
}

export const refreshToken: GrantHandler = {
  grantType: REFRESH_TOKEN_GRANT,
  parameters: ['refresh_token', 'scope'],
  // Public clients (client_id only) refresh too; the token is bound to the client.
  requiresConfidentialClient: false,

  async handle({ ctx, tenant, request, params, client, confirmation }: GrantContext): Promise<TokenResponse> {
    requireParams(params, 'refresh_token');
    const row = await findToken(ctx, tenant, client, params);
    // Checked before the token is used, so a request without the key spends nothing.
    if (row.dpop_jkt && row.dpop_jkt !== confirmation?.jkt) throw oauthErrors.invalidGrant('The refresh token is bound to a DPoP key: send a DPoP proof by that key');
    const user = await requireActiveUser(ctx.stores.users, tenant.id, row.user_id, userRefusals);
    const organization = await grantOrganization(ctx, tenant, row.organization_id, user.user_id, unknownToken);
    const scope = narrowScope(row, params);
    // post-login runs on the exchange too (`transaction.protocol` oauth2-refresh-token); a deny
    // refuses it before the token is used, so a refused refresh rotates nothing.
    const bound = await ctx.actions.bound(tenant.id, 'post-login');
    const connection = bound.length === 0 ? undefined : await ctx.stores.connections.get(tenant.id, user.connection_id);
    const actions = bound.length === 0 ? undefined : await runPostLogin(ctx, {
      tenant,
      client: client.client,
      user,
      connection: { id: user.connection_id, name: connection?.name ?? '', strategy: connection?.strategy ?? 'auth0' },
      request,
      ip: endUserIp(request, client),
      protocol: 'oauth2-refresh-token',
      audience: row.audience ?? undefined,
      scope,
      ...(organization && { organization: { id: organization.id, name: organization.name } }),
      canRedirect: false,
    }, bound);
    const successor = await useToken(ctx, tenant, row, refreshTokenSettings(client.client));
    return issueUserTokens(ctx, {
      tenant,
      client: client.client,
      user,
      // '' keeps a /userinfo-only grant from picking up a tenant default audience set since.
      audience: row.audience ?? '',
      scope,
      grantType: REFRESH_TOKEN_GRANT,
      ...(confirmation && { confirmation }),
      ...(actions && { actions }),
      ...(organization && { organization }),
      // RFC 6749 §6: the new refresh token has the scope of the one it replaces, not the narrowed one.
      refreshToken: async () =>
        successor &&
        issueRefreshToken(ctx, {
          tenant,
          client: client.client,
          userId: user.user_id,
          audience: row.audience ?? undefined,
          scope: row.scope,
          family: successor,
          boundTo: row.dpop_jkt ?? null,
          ...(organization && { organizationId: organization.id }),
        }),
    });
  },
};
