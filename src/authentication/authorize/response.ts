/**
 * The parameters of a successful authorization response for a logged-in
 * user: a code when the response type has `code` (single use, bound to the
 * client, redirect_uri, PKCE challenge, user and session; only its hash is
 * stored), tokens when it has `token` or `id_token`
 * (../token/user-tokens.ts issueFrontChannelTokens).
 */
import type { Stores } from '../../domain/stores.js';
import type { IssuanceClient } from '../../domain/issuance/lookups.js';
import { lifetimeOf } from '../../domain/lifetimes.js';
import { CODE_LIFETIME_SECONDS, complianceProfile } from '../../domain/clients/compliance.js';
import type { SessionRow } from '../../domain/rows.js';
import { newSecret, secretHash } from '../../domain/secrets.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { isoAt } from '../../platform/clock.js';
import type { Authenticated } from '../interaction/sessions.js';
import { issueFrontChannelTokens, scopesToGrant, type UserTokenContext } from '../token/user-tokens.js';
import { tokenPolicy } from '../../domain/issuance/token-policy.js';
import { oauthErrors } from '../../platform/http/errors.js';
import type { AuthorizeRequest } from './request.js';
import { findOrganization, type TokenOrganization } from '../../domain/organizations/login.js';
import type { TokenChanges } from '../../domain/actions-runtime/triggers/post-login.js';

/** Only what changes the tokens is kept with the code. */
function tokenChanges({ idTokenClaims, accessTokenClaims, addScopes, removeScopes }: TokenChanges): TokenChanges {
  return { idTokenClaims, accessTokenClaims, addScopes, removeScopes };
}

/**
 * What an authorization response touches: the codes it keeps, the
 * organization asked for, the clients a session issued to (back-channel
 * logout), and what issuing the front channel's tokens does.
 */
export interface AuthorizationResponseContext extends UserTokenContext {
  readonly stores: UserTokenContext['stores'] & Pick<Stores, 'authorizationCodes' | 'backchannelLogout' | 'organizations'>;
}

/** The tenant's code lifetime, at most CODE_LIFETIME_SECONDS for a client with a compliance level (FAPI). */
function codeLifetime(tenant: Tenant, client: IssuanceClient): number {
  const lifetime = lifetimeOf(tenant, 'authorization_code');
  return complianceProfile(client.row) ? Math.min(lifetime, CODE_LIFETIME_SECONDS) : lifetime;
}

async function issueCode(
  ctx: AuthorizationResponseContext,
  tenant: Tenant,
  client: IssuanceClient,
  request: AuthorizeRequest,
  userId: string,
  session: SessionRow,
  organization: TokenOrganization | undefined,
  actions: TokenChanges | undefined,
): Promise<string> {
  const code = newSecret();
  await ctx.stores.authorizationCodes.insert({
    tenant_id: tenant.id,
    code_hash: secretHash(code),
    client_id: request.client_id,
    user_id: userId,
    redirect_uri: request.redirect_uri ?? null,
    scope: request.scope ?? null,
    audience: request.audience ?? null,
    nonce: request.nonce ?? null,
    code_challenge: request.code_challenge ?? null,
    code_challenge_method: request.code_challenge_method ?? null,
    session_id: session.id_hash,
    auth_time: session.auth_time,
    amr: session.amr,
    expires_at: isoAt(ctx.now() + codeLifetime(tenant, client) * 1000),
    dpop_jkt: request.dpop_jkt ?? null,
    organization_id: organization?.id ?? null,
    action_changes: actions ? tokenChanges(actions) : null,
  });
  return code;
}

/**
 * The organization the request logs in to (the organization step checked the
 * membership); one deleted since is a refusal, never a token without it.
 */
async function requestOrganization(ctx: AuthorizationResponseContext, tenant: Tenant, request: AuthorizeRequest): Promise<TokenOrganization | undefined> {
  if (request.organization === undefined) return undefined;
  const row = await findOrganization(ctx.stores, tenant.id, request.organization);
  if (!row) throw oauthErrors.invalidRequest(`no organization found with the id or name ${request.organization}`);
  return { id: row.id, name: row.name };
}

/**
 * A client whose token policy refuses before the code (the admin console's)
 * is answered only for a user the token endpoint would grant: a user who is
 * not an operator gets `access_denied` at the console instead of a code
 * (the token endpoint refuses the same user again, e.g. one whose role was
 * taken away after the code was issued).
 */
async function requireOperator(ctx: AuthorizationResponseContext, tenant: Tenant, client: IssuanceClient, request: AuthorizeRequest, userId: string): Promise<void> {
  if (!tokenPolicy(tenant.id, client.row.client_id).refusedBeforeCode) return;
  // Its access_denied goes back to the client as the authorization error (the interaction policy answers this request's errors to it).
  await scopesToGrant(ctx, { tenant, client, audience: request.audience, scope: request.scope, userId });
}

export async function authorizationResponse(
  ctx: AuthorizationResponseContext,
  tenant: Tenant,
  client: IssuanceClient,
  request: AuthorizeRequest,
  { user, session }: Authenticated,
  actions?: TokenChanges,
): Promise<Record<string, string>> {
  const parts = new Set(request.response_type);
  const response: Record<string, string> = {};
  const organization = await requestOrganization(ctx, tenant, request);
  await requireOperator(ctx, tenant, client, request, user.user_id);
  // Who the session issued tokens to: told by back-channel logout when it ends.
  await ctx.stores.backchannelLogout.recordClient(tenant.id, session.id_hash, client.row.client_id, isoAt(ctx.now()));
  if (parts.has('code')) response.code = await issueCode(ctx, tenant, client, request, user.user_id, session, organization, actions);
  if (parts.has('token') || parts.has('id_token')) {
    Object.assign(
      response,
      await issueFrontChannelTokens(
        ctx,
        {
          tenant,
          client,
          user,
          audience: request.audience,
          scope: request.scope,
          ...(request.nonce !== undefined && { nonce: request.nonce }),
          authTime: session.auth_time,
          sid: session.id_hash,
          ...(session.amr !== null && { amr: session.amr.split(' ') }),
          ...(organization && { organization }),
          ...(actions && { actions }),
        },
        { accessToken: parts.has('token'), idToken: parts.has('id_token'), ...(response.code !== undefined && { code: response.code }) },
      ),
    );
  }
  return response;
}
