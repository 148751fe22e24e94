/**
 * The authorization_code grant (RFC 6749 §4.1.3, RFC 7636 §4.5-4.6;
 * authentication-api-wire-notes §5.1) as a pipeline of named steps: find the
 * code (the client's, not expired), refuse a replay, check the redirect_uri
 * and the PKCE verifier, consume the code, refuse a deleted or blocked user,
 * issue the tokens. Every refusal of the code itself is 403 `invalid_grant`
 * "Invalid authorization code"; a wrong verifier is "Failed to verify code
 * verifier", as the service answers.
 *
 * Replay (RFC 6749 §4.1.2: the server "SHOULD revoke (when possible) all
 * tokens previously issued based on that authorization code"): consuming the
 * code records the refresh-token family its tokens may start, and a second
 * use revokes that family. Access and ID tokens already issued are JWTs and
 * stay valid until they expire.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { newPrefixedId } from '../../../platform/crypto/ids.js';
import { oauthErrors } from '../../../platform/http/errors.js';
import type { Tenant } from '../../../domain/tenants/tenant.js';
import type { AuthenticatedClient } from '../../client-auth/method.js';
import { AUTHORIZATION_CODE_GRANT } from '../../authorize/request.js';
import { requireParams, type Params } from '../../params.js';
import type { GrantContext, GrantHandler, GrantHandlerContext, TokenResponse } from '../grant.js';
import { absoluteExpiry, issueRefreshToken, OFFLINE_ACCESS, refreshTokenSettings } from '../refresh-tokens.js';
import { approvedLoginTokens } from '../approved-login.js';
import { type AuthorizationCodeRow } from '../../../domain/rows.js';
import { secretHash } from '../../../domain/secrets.js';
import { isoAt } from '../../../platform/clock.js';

const invalidCode = () => oauthErrors.invalidGrant('Invalid authorization code');
const failedVerifier = () => oauthErrors.invalidGrant('Failed to verify code verifier');

/** RFC 7636 §4.1: 43 to 128 unreserved characters. */
const CODE_VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;


/** The code when it is the client's and not expired; a used one is a replay (revokes what it issued). */
async function findCode(ctx: GrantHandlerContext, tenant: Tenant, client: AuthenticatedClient, params: Params): Promise<AuthorizationCodeRow> {
  const row = await ctx.stores.authorizationCodes.find(tenant.id, secretHash(params.code!));
  if (!row || row.client_id !== client.client.row.client_id) throw invalidCode();
  if (row.used_at !== null) {
    await revokeIssued(ctx, tenant, row);
    throw invalidCode();
  }
  if (row.expires_at <= isoAt(ctx.now())) throw invalidCode();
  return row;
}

async function revokeIssued(ctx: GrantHandlerContext, tenant: Tenant, row: AuthorizationCodeRow): Promise<void> {
  if (row.refresh_family_id !== null) await ctx.stores.refreshTokens.revokeFamily(tenant.id, row.refresh_family_id, isoAt(ctx.now()));
}

/** RFC 6749 §4.1.3: the same redirect_uri when one was sent to /authorize. */
function checkRedirectUri(row: AuthorizationCodeRow, params: Params): void {
  if (row.redirect_uri !== null && params.redirect_uri !== row.redirect_uri) {
    throw oauthErrors.invalidGrant('The redirect_uri does not match the one of the authorization request');
  }
}

/**
 * RFC 7636 §4.6: BASE64URL(SHA256(code_verifier)) equals the challenge,
 * compared in constant time. A verifier without a challenge is refused too
 * (RFC 9700 §2.1.1, PKCE downgrade).
 */
function verifyCodeVerifier(row: AuthorizationCodeRow, params: Params): void {
  const verifier = params.code_verifier;
  if (row.code_challenge === null) {
    if (verifier !== undefined) throw failedVerifier();
    return;
  }
  if (verifier === undefined || !CODE_VERIFIER.test(verifier)) throw failedVerifier();
  const computed = Buffer.from(createHash('sha256').update(verifier, 'ascii').digest('base64url'));
  const expected = Buffer.from(row.code_challenge);
  if (computed.length !== expected.length || !timingSafeEqual(computed, expected)) throw failedVerifier();
}

/** One use: of two concurrent exchanges only one gets past this step. */
async function consumeCode(ctx: GrantHandlerContext, tenant: Tenant, row: AuthorizationCodeRow, refreshFamilyId: string): Promise<void> {
  if (!(await ctx.stores.authorizationCodes.consume(tenant.id, row.code_hash, isoAt(ctx.now()), refreshFamilyId))) throw invalidCode();
}

export const authorizationCode: GrantHandler = {
  grantType: AUTHORIZATION_CODE_GRANT,
  parameters: ['code', 'redirect_uri', 'code_verifier'],
  // Public clients exchange codes with client_id and PKCE (required of them at /authorize).
  requiresConfidentialClient: false,

  async handle({ ctx, tenant, params, client, confirmation, login }: GrantContext): Promise<TokenResponse> {
    requireParams(params, 'code');
    const row = await findCode(ctx, tenant, client, params);
    login.userId = row.user_id;
    checkRedirectUri(row, params);
    verifyCodeVerifier(row, params);
    if (row.dpop_jkt && row.dpop_jkt !== confirmation?.jkt) throw oauthErrors.invalidGrant('The authorization code is bound to a DPoP key: send a DPoP proof by that key');
    const familyId = newPrefixedId('rtf', 24);
    await consumeCode(ctx, tenant, row, familyId);
    // A new family whose id the code recorded, so a replay of the code can revoke it.
    return approvedLoginTokens(ctx, tenant, client, row, invalidCode, {
      ...(row.nonce !== null && { nonce: row.nonce }),
      ...(confirmation && { confirmation }),
      ...(row.amr !== null && { amr: row.amr.split(' ') }),
      ...(row.action_changes && { actions: row.action_changes }),
      refreshToken: async ({ organizationId, ...granted }) =>
        granted.scope.split(' ').includes(OFFLINE_ACCESS)
          ? issueRefreshToken(ctx, {
              tenant,
              client: client.client,
              userId: row.user_id,
              ...granted,
              family: { id: familyId, expiresAt: absoluteExpiry(refreshTokenSettings(client.client), ctx.now()) },
              ...(confirmation && { confirmation }),
              ...(organizationId !== undefined && { organizationId }),
              sessionId: row.session_id,
            })
          : undefined,
    });
  },
};
