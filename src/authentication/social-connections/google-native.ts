/**
 * Google Native Social Login: a native application signs the user in with
 * Google itself and exchanges Google's id_token at /oauth/token
 * (`grant_type=urn:ietf:params:oauth:grant-type:token-exchange`,
 * `subject_token_type=http://auth0.com/oauth/token-type/google-id-token`,
 * authentication-api wire notes §token grants). The id_token was issued to
 * the application's own Google client id, not the connection's: the
 * connection's `allowed_audiences` lists those it accepts (federation wire
 * notes §1.4, §2.4).
 *
 * - the client must have `native_social_login.google.enabled`, and a
 *   `google-oauth2` connection enabled;
 * - the id_token is verified with jose against Google's JWKS (read from its
 *   discovery document through the outbound guard; the issuer replaced by
 *   GATEHOUSE_FEDERATION_ENDPOINTS in tests): its signature with an
 *   advertised asymmetric algorithm, `iss`, `exp`, and an `aud` that is the
 *   connection's `client_id` or one of its `allowed_audiences` (with several
 *   audiences, `azp` must be one of them too);
 * - it is used once (a replayed id_token is refused);
 * - the user is `google-oauth2|{sub}`, made or refreshed as by the browser
 *   login (never found by email), then tokens are issued as for any login.
 */
import { createHash } from 'node:crypto';
import * as jose from 'jose';
import { rootAttributesSync } from '../../domain/connections/social-options.js';
import { connectionStrategy } from '../../domain/connections/strategies/index.js';
import { isActive } from '../../domain/users/active-user.js';
import { upsertFederatedUser, type FederatedProfile } from '../../domain/users/federated-user.js';
import { isoAt } from '../../platform/clock.js';
import { oauthErrors } from '../../platform/http/errors.js';
import { requireParams } from '../params.js';
import type { GrantContext, TokenResponse } from '../token/grant.js';
import { issueUserTokens } from '../token/user-tokens.js';
import { discover, guardedFetch, ID_TOKEN_ALGS } from '../oauth2-upstream/index.js';
import { googleOauth2 } from './google-oauth2.js';
import { claimsProfile } from './profile.js';

export const GOOGLE_ID_TOKEN = 'http://auth0.com/oauth/token-type/google-id-token';
const GOOGLE_ISSUER = 'https://accounts.google.com';
const STRATEGY = googleOauth2.strategy.name;

function nativeLoginEnabled(config: Record<string, unknown>): boolean {
  const native = config.native_social_login as { google?: { enabled?: unknown } } | undefined;
  return native?.google?.enabled === true;
}

/** The id_token's claims, every check passed; throws otherwise. */
async function verifiedClaims(ctx: GrantContext['ctx'], options: Readonly<Record<string, unknown>>, idToken: string): Promise<jose.JWTPayload> {
  const issuer = ctx.config.federationEndpoints?.overrides[STRATEGY]?.issuer ?? GOOGLE_ISSUER;
  const server = await discover(ctx, issuer);
  if (typeof server.jwks_uri !== 'string') throw new Error('the discovery document names no jwks_uri');
  const answer = await guardedFetch(ctx)(server.jwks_uri, { headers: { accept: 'application/json' } });
  if (answer.status !== 200) throw new Error(`the JWKS answered ${answer.status}`);
  const jwks = jose.createLocalJWKSet((await answer.json()) as jose.JSONWebKeySet);
  const audiences = [options.client_id, ...(Array.isArray(options.allowed_audiences) ? options.allowed_audiences : [])].filter((a): a is string => typeof a === 'string' && a !== '');
  if (audiences.length === 0) throw new Error('the connection has no client_id nor allowed_audiences');
  const advertised = server.id_token_signing_alg_values_supported ?? ['RS256'];
  const { payload } = await jose.jwtVerify(idToken, jwks, {
    // Google's id_tokens name their issuer with or without the scheme.
    issuer: issuer === GOOGLE_ISSUER ? [GOOGLE_ISSUER, 'accounts.google.com'] : issuer,
    audience: audiences,
    algorithms: ID_TOKEN_ALGS.filter((alg) => advertised.includes(alg)),
    requiredClaims: ['sub', 'exp', 'iat'],
    clockTolerance: 30,
  });
  if (Array.isArray(payload.aud) && payload.aud.length > 1 && !audiences.includes(String(payload.azp))) throw new Error('unexpected id_token "azp"');
  return payload;
}

/** The token exchange of a Google id_token for the tenant's tokens. */
export async function googleNativeLogin({ ctx, tenant, params, client, confirmation, login, request }: GrantContext): Promise<TokenResponse> {
  requireParams(params, 'subject_token');
  const row = client.client.row;
  if (!nativeLoginEnabled(row.config)) throw oauthErrors.unauthorizedClient('Native Social Login for Google is not enabled for this client (native_social_login.google.enabled)');
  const connection = (await ctx.stores.connections.enabledForClient(tenant.id, row.client_id)).find((c) => c.strategy === STRATEGY);
  if (!connection) throw oauthErrors.invalidRequest('No google-oauth2 connection is enabled for this client');
  const idToken = params.subject_token!;
  let claims: jose.JWTPayload;
  try {
    claims = await verifiedClaims(ctx, connection.options, idToken);
  } catch (error) {
    request.log.warn({ connection: connection.name, reason: (error as Error).message }, 'Google id_token refused');
    throw oauthErrors.invalidGrant('The Google id_token could not be verified');
  }
  const expiresAt = isoAt(Math.max((claims.exp ?? 0) * 1000, ctx.now()) + 60_000);
  if (!(await ctx.stores.oneTimeUses.use(tenant.id, 'google_native_id_token', createHash('sha256').update(idToken).digest('base64url'), expiresAt, isoAt(ctx.now())))) {
    throw oauthErrors.invalidGrant('This Google id_token was already exchanged');
  }
  const nonPersistent = new Set(Array.isArray(connection.options.non_persistent_attrs) ? (connection.options.non_persistent_attrs as string[]) : []);
  const profile: FederatedProfile = Object.fromEntries(Object.entries(claimsProfile(claims)).filter(([member, value]) => value !== undefined && value.length <= 512 && !nonPersistent.has(member)));
  const strategy = connectionStrategy(STRATEGY)!;
  const user = await upsertFederatedUser(ctx.stores.users, strategy, connection, String(claims.sub), profile, isoAt(ctx.now()), rootAttributesSync(connection.options));
  if (!user) throw oauthErrors.invalidGrant('This user is not known to the connection');
  login.userId = user.user_id;
  if (!isActive(user)) throw oauthErrors.userBlocked();
  return issueUserTokens(ctx, { tenant, client: client.client, user, audience: params.audience, scope: params.scope, ...(confirmation && { confirmation }) });
}
