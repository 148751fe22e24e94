/**
 * Token Vault: `grant_type=urn:auth0:params:oauth:grant-type:token-exchange:federated-connection-access-token`
 * (federation wire notes §4.2). A confidential client that holds a user's
 * Gatehouse refresh token (`subject_token`, `subject_token_type`
 * `urn:ietf:params:oauth:token-type:refresh_token`) gets the user's access
 * token at the upstream identity provider of `connection`: the one kept
 * (sealed) from the user's last login through it, or, when it has expired,
 * a new one from the provider for the kept refresh token (the set updated).
 *
 * Refusals: an unknown, revoked, expired or another client's refresh token
 * is 403 invalid_grant (as the refresh_token grant answers); no tokens kept
 * for the user at that connection, or none that can be refreshed, 401
 * access_denied (the service's status; its body codes are undocumented).
 * An access token as the subject (the service's Custom API Client variant)
 * is not supported: 400 invalid_request.
 */
import { oauthErrors } from '../../../platform/http/errors.js';
import { isoAt } from '../../../platform/clock.js';
import { secretHash } from '../../../domain/secrets.js';
import { requireActiveUser } from '../../../domain/users/active-user.js';
import { openUpstreamTokens, refreshedUpstreamTokens } from '../../../domain/upstream-tokens/vault.js';
import { refreshOidcTokens } from '../../oidc-connection/index.js';
import { requireParams } from '../../params.js';
import type { GrantContext, GrantHandler, TokenResponse } from '../grant.js';
import { isExpired } from '../refresh-tokens.js';

export const FEDERATED_CONNECTION_ACCESS_TOKEN = 'urn:auth0:params:oauth:grant-type:token-exchange:federated-connection-access-token';
const REFRESH_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:refresh_token';
const ISSUED_TOKEN_TYPE = 'http://auth0.com/oauth/token-type/federated-connection-access-token';
/** An access token this close to its expiry is refreshed first. */
const EXPIRY_MARGIN_MS = 30_000;

const unknownToken = () => oauthErrors.invalidGrant('Unknown or invalid refresh token.');

export const federatedConnectionAccessToken: GrantHandler = {
  grantType: FEDERATED_CONNECTION_ACCESS_TOKEN,
  parameters: ['subject_token', 'subject_token_type', 'requested_token_type', 'connection', 'login_hint'],
  requiresConfidentialClient: true,

  async handle({ ctx, tenant, params, client, login }: GrantContext): Promise<TokenResponse> {
    requireParams(params, 'subject_token', 'subject_token_type', 'connection');
    if (params.subject_token_type !== REFRESH_TOKEN_TYPE) throw oauthErrors.invalidRequest(`subject_token_type must be ${REFRESH_TOKEN_TYPE}`);
    if (params.requested_token_type !== undefined && params.requested_token_type !== ISSUED_TOKEN_TYPE) throw oauthErrors.invalidRequest(`requested_token_type must be ${ISSUED_TOKEN_TYPE}`);
    const now = ctx.now();
    const row = await ctx.stores.refreshTokens.find(tenant.id, secretHash(params.subject_token!));
    if (!row || row.client_id !== client.client.row.client_id || row.revoked_at !== null || isExpired(row, isoAt(now))) throw unknownToken();
    const user = await requireActiveUser(ctx.stores.users, tenant.id, row.user_id, { missing: unknownToken, blocked: () => oauthErrors.invalidGrant('user is blocked') });
    login.user = user;
    const set = await ctx.stores.upstreamTokenSets.find(tenant.id, user.user_id, params.connection!);
    if (!set) throw oauthErrors.accessDenied(`No tokens of the identity provider are kept for this user at connection ${params.connection}.`, 401);
    const kept = openUpstreamTokens(ctx.box, set);
    const expiresAt = set.access_token_expires_at === null ? undefined : Date.parse(set.access_token_expires_at);
    if (kept.access_token !== undefined && (expiresAt === undefined || expiresAt > now + EXPIRY_MARGIN_MS)) {
      await ctx.stores.upstreamTokenSets.update(tenant.id, set.id, { last_used_at: isoAt(now) });
      return answer(kept.access_token, expiresAt, set.scope ?? undefined, now);
    }
    if (kept.refresh_token === undefined) throw oauthErrors.accessDenied('The identity provider\'s access token has expired and no refresh token is kept.', 401);
    const connection = await ctx.stores.connections.get(tenant.id, set.connection_id);
    let fresh;
    try {
      fresh = connection && (await refreshOidcTokens(ctx, connection, kept.refresh_token));
    } catch (error) {
      ctx.logger.warn({ connection: set.connection, reason: (error as Error).message }, 'the identity provider refused to refresh a kept token');
    }
    if (!fresh?.access_token) throw oauthErrors.accessDenied('The identity provider\'s access token could not be refreshed.', 401);
    await refreshedUpstreamTokens(ctx, set, fresh);
    return answer(fresh.access_token, fresh.expires_at === undefined ? undefined : fresh.expires_at * 1000, fresh.scope ?? set.scope ?? undefined, now);
  },
};

function answer(accessToken: string, expiresAtMs: number | undefined, scope: string | undefined, now: number): TokenResponse {
  return {
    access_token: accessToken,
    ...(scope !== undefined && { scope }),
    expires_in: expiresAtMs === undefined ? 0 : Math.max(0, Math.floor((expiresAtMs - now) / 1000)),
    issued_token_type: ISSUED_TOKEN_TYPE,
    token_type: 'Bearer',
  };
}
