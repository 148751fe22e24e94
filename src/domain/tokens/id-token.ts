/**
 * ID tokens (OpenID Connect Core 1.0 §2), shaped as the service issues them
 * (authentication-api-wire-notes §6 "ID token"): RS256 with the tenant key,
 * header `{alg, typ: "JWT", kid}`, `aud` the client_id, lifetime from the
 * client's `jwt_configuration.lifetime_in_seconds` (default 36000).
 * `nonce`, `at_hash`, `c_hash`, `sid` and `auth_time` appear only when given:
 * SDKs validate a nonce whenever the payload has one.
 */
import { createHash } from 'node:crypto';
import type { JWTPayload } from 'jose';
import { signJwt, type JwsHeader } from '../../platform/crypto/jws.js';
import type { IssuanceClient } from '../issuance/lookups.js';
import { fapiKid, FAPI_SIGNING_ALG, SIGNING_ALG, type Keyring } from '../keys/keyring.js';
import { complianceProfile } from '../clients/compliance.js';
import type { Tenant } from '../tenants/tenant.js';
import type { UserRow } from '../users/model.js';
import { organizationClaims, type TokenOrganization } from '../organizations/login.js';
import { addCustomClaims } from './access-token.js';

export const DEFAULT_ID_TOKEN_LIFETIME = 36_000;

export interface IdTokenRequest {
  tenant: Tenant;
  client: IssuanceClient;
  user: UserRow;
  /** Granted scopes; `profile` and `email` select the profile and email claims. */
  scopes: Iterable<string>;
  nonce?: string;
  /** Seconds since the epoch. */
  authTime?: number;
  sid?: string;
  /** The access token issued alongside, for `at_hash`. */
  accessToken?: string;
  /** The authorization code, for `c_hash`. */
  code?: string;
  /** Authentication methods references (`["mfa"]` once a second factor was used). */
  amr?: readonly string[];
  /** The organization the login was for: `org_id` (and `org_name`). */
  organization?: TokenOrganization;
  /** Claims set by Actions (validated by ../actions-runtime/claims.ts); never one the token already has. */
  customClaims?: Readonly<Record<string, unknown>>;
}

/**
 * OIDC Core §3.1.3.6 / §3.3.2.11: base64url of the left half of the hash
 * whose size matches the signing algorithm (SHA-256 for RS256).
 */
export function halfHash(value: string): string {
  const digest = createHash('sha256').update(value, 'ascii').digest();
  return digest.subarray(0, digest.length / 2).toString('base64url');
}

/** The client's ID token lifetime in seconds (`jwt_configuration.lifetime_in_seconds`). */
export function idTokenLifetime(client: IssuanceClient): number {
  const jwt = client.row.config.jwt_configuration as { lifetime_in_seconds?: unknown } | null | undefined;
  const lifetime = jwt?.lifetime_in_seconds;
  if (typeof lifetime === 'number' && Number.isInteger(lifetime) && lifetime > 0) return lifetime;
  return DEFAULT_ID_TOKEN_LIFETIME;
}

/**
 * The standard claims of a user for the granted scopes (OIDC Core §5.4):
 * `profile` gives name, nickname, picture, updated_at, given_name and
 * family_name when set; `email` gives email and email_verified. Shared by
 * ID tokens and /userinfo. `updated_at` is an ISO string as the service sends it.
 */
/** The standard claims each OpenID Connect scope releases (OIDC Core §5.4), as userClaims gives them. */
export const SCOPE_CLAIMS: Readonly<Record<string, readonly string[]>> = {
  profile: ['name', 'family_name', 'given_name', 'nickname', 'picture', 'updated_at'],
  email: ['email', 'email_verified'],
};

/** The claims of every ID token (OIDC Core §2) that discovery lists. */
const REGISTERED_CLAIMS = ['aud', 'auth_time', 'exp', 'iat', 'iss', 'sub'];

/** Discovery's `claims_supported`: the registered claims and every scope's. */
export const SUPPORTED_CLAIMS: readonly string[] = [...new Set([...REGISTERED_CLAIMS, ...Object.values(SCOPE_CLAIMS).flat()])].sort();

export function userClaims(user: UserRow, scopes: ReadonlySet<string>): Record<string, unknown> {
  const claims: Record<string, unknown> = {};
  if (scopes.has('profile')) {
    if (user.given_name !== null) claims.given_name = user.given_name;
    if (user.family_name !== null) claims.family_name = user.family_name;
    if (user.nickname !== null) claims.nickname = user.nickname;
    if (user.name !== null) claims.name = user.name;
    if (user.picture !== null) claims.picture = user.picture;
    claims.updated_at = user.updated_at;
  }
  if (scopes.has('email') && user.email !== null) {
    claims.email = user.email;
    claims.email_verified = user.email_verified === 1;
  }
  return claims;
}

/** What signing ID tokens takes. */
export interface IdTokenContext {
  readonly keyring: Keyring;
  readonly now: () => number;
}

export async function issueIdToken(ctx: IdTokenContext, request: IdTokenRequest): Promise<string> {
  const { tenant, client, user } = request;
  const iat = Math.floor(ctx.now() / 1000);
  // Profile claims first, then the registered ones, as the service's tokens read.
  const payload: JWTPayload = {
    ...userClaims(user, new Set(request.scopes)),
    iss: tenant.issuer,
    aud: client.row.client_id,
    sub: user.user_id,
    iat,
    exp: iat + idTokenLifetime(client),
  };
  if (request.authTime !== undefined) payload.auth_time = request.authTime;
  if (request.sid !== undefined) payload.sid = request.sid;
  if (request.amr !== undefined && request.amr.length > 0) payload.amr = [...request.amr];
  if (request.accessToken !== undefined) payload.at_hash = halfHash(request.accessToken);
  if (request.code !== undefined) payload.c_hash = halfHash(request.code);
  if (request.nonce !== undefined) payload.nonce = request.nonce;
  Object.assign(payload, organizationClaims(tenant, request.organization));
  addCustomClaims(payload, request.customClaims);

  const { signing } = await ctx.keyring.keys(tenant.id);
  // FAPI levels: PS256 (see FAPI_SIGNING_ALG).
  const fapi = complianceProfile(client.row) !== undefined;
  const header: JwsHeader = fapi ? { alg: FAPI_SIGNING_ALG, typ: 'JWT', kid: fapiKid(signing.kid) } : { alg: SIGNING_ALG, typ: 'JWT', kid: signing.kid };
  return signJwt(payload, header, signing.privateKey);
}
