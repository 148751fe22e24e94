/**
 * What the three MFA grants share (./grants/mfa-otp.ts, mfa-oob.ts,
 * mfa-recovery-code.ts): reading the `mfa_token` of the `mfa_required`
 * answer, refusing a failed second factor, and completing the login.
 *
 * - The token must open (else 403 `invalid_grant` "Malformed mfa_token", the
 *   service's words), be unexpired (403 `expired_token` "mfa_token is
 *   expired"), have been issued to the authenticating client, and name a
 *   user who may still log in.
 * - A wrong code is 403 `invalid_grant` with the grant's message; a user
 *   whose wrong codes reached the limit gets 429 `too_many_attempts`.
 * - Completing spends the token (one_time_uses by its jti: a replay is
 *   `invalid_grant`) and issues what the password grant would have, with
 *   `amr: ["mfa"]` in the ID token; for the MFA API's audience, an MFA API
 *   access token.
 */
import { issueMfaApiToken, mfaApiScopes, mfaAudience, type MfaApiTokenContext } from '../../domain/mfa/api-token.js';
import { MFA_TOKEN_PURPOSE, openMfaToken, type MfaTokenClaims, type MfaTokenContext } from '../../domain/mfa/mfa-token.js';
import type { UserStore } from '../../domain/users/store.js';
import { secretHash } from '../../domain/secrets.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { requireActiveUser } from '../../domain/users/active-user.js';
import type { UserRow } from '../../domain/users/model.js';
import { isoAt } from '../../platform/clock.js';
import { oauthErrors } from '../../platform/http/errors.js';
import type { AuthenticatedClient } from '../client-auth/method.js';
import { requireParams, type Params } from '../params.js';
import type { TokenResponse } from './grant.js';
import { issueUserTokens, type UserTokenContext } from './user-tokens.js';

export const MFA_TOKEN_FAILURES = {
  malformed: () => oauthErrors.invalidGrant('Malformed mfa_token'),
  expired: () => oauthErrors.expiredToken('mfa_token is expired'),
  otherClient: () => oauthErrors.invalidGrant('The mfa_token was not issued to this client.'),
  spent: () => oauthErrors.invalidGrant('The mfa_token was already used.'),
};

/** What an `mfa_token`'s login touches: the sealed token (spent once), its user, and the tokens it ends in. */
export interface MfaGrantContext extends MfaTokenContext, MfaApiTokenContext, UserTokenContext {
  readonly stores: MfaTokenContext['stores'] & UserTokenContext['stores'] & { readonly users: UserStore };
}

export interface MfaLogin {
  claims: MfaTokenClaims;
  user: UserRow;
}

/** The login an `mfa_token` continues, for this client. */
export async function openMfaLogin(ctx: MfaGrantContext, tenant: Tenant, client: AuthenticatedClient, token: string): Promise<MfaLogin> {
  const opened = await openMfaToken(ctx, tenant, token);
  if (!opened.ok) throw MFA_TOKEN_FAILURES[opened.failure]();
  const { claims } = opened;
  if (claims.client_id !== client.client.row.client_id) throw MFA_TOKEN_FAILURES.otherClient();
  const user = await requireActiveUser(ctx.stores.users, tenant.id, claims.sub, { missing: MFA_TOKEN_FAILURES.malformed, blocked: oauthErrors.userBlocked });
  return { claims, user };
}

/** The `mfa_token` parameter's login. */
export function mfaLoginOf(ctx: MfaGrantContext, tenant: Tenant, client: AuthenticatedClient, params: Params): Promise<MfaLogin> {
  requireParams(params, 'mfa_token');
  return openMfaLogin(ctx, tenant, client, params.mfa_token!);
}

/** Refuses a second factor that was not right: `wrongMessage` for a wrong code, 429 once the user is blocked. */
export function refuseFailedFactor(outcome: 'ok' | 'wrong' | 'blocked', wrongMessage: string): void {
  if (outcome === 'blocked') throw oauthErrors.tooManyAttempts();
  if (outcome === 'wrong') throw oauthErrors.invalidGrant(wrongMessage);
}

/** The second factor was right: the token is spent and the login's tokens issued. */
export async function completeMfaLogin(ctx: MfaGrantContext, tenant: Tenant, client: AuthenticatedClient, login: MfaLogin): Promise<TokenResponse> {
  const { claims, user } = login;
  const fresh = await ctx.stores.oneTimeUses.use(tenant.id, MFA_TOKEN_PURPOSE, secretHash(claims.jti), isoAt(claims.exp), isoAt(ctx.now()));
  if (!fresh) throw MFA_TOKEN_FAILURES.spent();
  if (claims.audience === mfaAudience(tenant)) {
    const scopes = mfaApiScopes(claims.scope);
    const { token, expiresIn } = await issueMfaApiToken(ctx, { tenant, userId: user.user_id, clientId: client.client.row.client_id, scopes });
    return { access_token: token, scope: scopes.join(' '), expires_in: expiresIn, token_type: 'Bearer' };
  }
  return issueUserTokens(ctx, { tenant, client: client.client, user, audience: claims.audience, scope: claims.scope, amr: ['mfa'] });
}
