/**
 * The tokens of a login approved earlier and redeemed now (an authorization
 * code, an approved device or back-channel request): the user must still be
 * active, and, when the login was for an organization, still one of its
 * members; then the user tokens of what was granted, with the login's
 * `auth_time` and `sid`.
 */
import type { Tenant } from '../../domain/tenants/tenant.js';
import { requireActiveUser } from '../../domain/users/active-user.js';
import { oauthErrors, type OAuthError } from '../../platform/http/errors.js';
import type { AuthenticatedClient } from '../client-auth/method.js';
import type { TokenResponse } from './grant.js';
import { grantOrganization, type GrantOrganizationContext } from './organization.js';
import { issueUserTokens, type UserTokenContext } from './user-tokens.js';
import type { UserStore } from '../../domain/users/store.js';
import type { Confirmation } from '../../domain/tokens/confirmation.js';
import type { TokenChanges } from '../../domain/actions-runtime/triggers/post-login.js';

/** What the approval recorded. */
export interface ApprovedLogin {
  user_id: string;
  audience: string | null;
  scope: string | null;
  auth_time: number | null;
  session_id: string | null;
  organization_id: string | null;
}

/** What redeeming an approved login touches: the user, their organization, and what issuing their tokens does. */
export interface ApprovedLoginContext extends UserTokenContext, GrantOrganizationContext {
  readonly stores: UserTokenContext['stores'] & GrantOrganizationContext['stores'] & { readonly users: UserStore };
}

export async function approvedLoginTokens(
  ctx: ApprovedLoginContext,
  tenant: Tenant,
  client: AuthenticatedClient,
  login: ApprovedLogin,
  refuse: () => OAuthError,
  extra: {
    nonce?: string;
    /** The DPoP key the tokens are bound to. */
    confirmation?: Confirmation;
    /** The authentication methods of the login (`amr`: `mfa` after a second factor). */
    amr?: string[];
    /** What the login's post-login actions changed in the tokens. */
    actions?: TokenChanges;
    /** The refresh token of the response (see UserTokenRequest), told the organization the grant is for. */
    refreshToken?: (granted: { audience: string | undefined; scope: string; organizationId?: string }) => Promise<string | undefined>;
  } = {},
): Promise<TokenResponse> {
  const user = await requireActiveUser(ctx.stores.users, tenant.id, login.user_id, { missing: refuse, blocked: () => oauthErrors.invalidGrant('user is blocked') });
  const organization = await grantOrganization(ctx, tenant, login.organization_id, user.user_id, refuse);
  return issueUserTokens(ctx, {
    tenant,
    client: client.client,
    user,
    audience: login.audience ?? undefined,
    scope: login.scope ?? undefined,
    ...(login.auth_time !== null && { authTime: login.auth_time }),
    ...(login.session_id !== null && { sid: login.session_id }),
    ...(organization && { organization }),
    ...(extra.nonce !== undefined && { nonce: extra.nonce }),
    ...(extra.confirmation && { confirmation: extra.confirmation }),
    ...(extra.amr && { amr: extra.amr }),
    ...(extra.actions && { actions: extra.actions }),
    ...(extra.refreshToken && { refreshToken: (granted) => extra.refreshToken!({ ...granted, ...(organization && { organizationId: organization.id }) }) }),
  });
}
