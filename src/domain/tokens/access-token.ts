/**
 * Access tokens: JWTs for a resource server (API), shaped as the service
 * issues them (authentication-api-wire-notes §6): header `{alg, typ: "JWT",
 * kid}`, claims `iss`, `sub`, `aud`, `iat`, `exp`, `scope`, `gty`, `azp`.
 * APIs with the `rfc9068_profile` dialects get RFC 9068's `typ: at+jwt`,
 * `client_id` and `jti` instead of `azp`; the `*_authz` dialects add the
 * `permissions` array (the RBAC permissions for user tokens, the granted
 * scopes for client tokens).
 */
import { randomBytes } from 'node:crypto';
import type { JWTPayload } from 'jose';
import { signJwt } from '../../platform/crypto/jws.js';
import { SIGNING_ALG, type Keyring } from '../keys/keyring.js';
import { signingSecretContext, type ResourceServerRow } from '../resource-servers/model.js';
import type { Tenant } from '../tenants/tenant.js';
import type { Confirmation } from './confirmation.js';
import { organizationClaims, type TokenOrganization } from '../organizations/login.js';
import type { SecretBox } from '../../platform/crypto/secret-box.js';

export interface AccessTokenRequest {
  tenant: Tenant;
  resourceServer: ResourceServerRow;
  /** `{client_id}@clients` or a user id. */
  subject: string;
  clientId: string;
  /** Granted scopes, space-separated; the claim is omitted when empty. */
  scope: string;
  /** `gty` claim value, e.g. `client-credentials`. */
  grantType?: string;
  /** Extra audiences after the API (e.g. the userinfo endpoint). */
  extraAudiences?: readonly string[];
  /** The `permissions` claim of the `*_authz` dialects (RBAC). */
  permissions?: readonly string[];
  /** The `cnf` claim of a sender-constrained token (RFC 7800; DPoP's `jkt`, RFC 9449 §6). */
  confirmation?: Confirmation;
  /** The organization the grant is for: `org_id` (and `org_name`). */
  organization?: TokenOrganization;
  /** Its lifetime, profile and signature, as the token policy decides them (../issuance/token-policy.ts `accessTokenFormat`). */
  format: AccessTokenFormat;
  /** Claims set by Actions (validated by ../actions-runtime/claims.ts); never one the token already has. */
  customClaims?: Readonly<Record<string, unknown>>;
}

/** What the token policy decides of an access token's shape. */
export interface AccessTokenFormat {
  /** Seconds the token lives (`exp - iat`, `expires_in`). */
  lifetime: number;
  /** The service's claims (`typ: JWT`, `azp`) or RFC 9068's (`typ: at+jwt`, `client_id`, `jti`). */
  profile: 'auth0' | 'rfc9068';
  /** Whether the token carries the `permissions` claim (the `*_authz` dialects). */
  permissions: boolean;
  /** HS256 under the API's own secret, or the tenant's signing key. */
  signing: 'HS256' | 'RS256';
}

export interface IssuedAccessToken {
  token: string;
  expiresIn: number;
}

/** What signing access tokens takes. */
export interface AccessTokenContext {
  readonly box: SecretBox;
  readonly keyring: Keyring;
  readonly now: () => number;
}

export async function issueAccessToken(ctx: AccessTokenContext, request: AccessTokenRequest): Promise<IssuedAccessToken> {
  const { tenant, resourceServer, format } = request;
  const iat = Math.floor(ctx.now() / 1000);
  const expiresIn = format.lifetime;
  const rfc9068 = format.profile === 'rfc9068';
  const aud = request.extraAudiences?.length ? [resourceServer.identifier, ...request.extraAudiences] : resourceServer.identifier;

  // Claim order follows the service's tokens (iss, sub, aud, iat, exp, scope, gty, azp).
  const payload: JWTPayload = { iss: tenant.issuer, sub: request.subject, aud, iat, exp: iat + expiresIn };
  if (request.scope) payload.scope = request.scope;
  if (rfc9068) {
    payload.jti = randomBytes(16).toString('base64url');
    payload.client_id = request.clientId;
  }
  if (request.grantType) payload.gty = request.grantType;
  if (!rfc9068) payload.azp = request.clientId;
  if (request.permissions !== undefined && format.permissions) payload.permissions = [...request.permissions];
  if (request.confirmation) payload.cnf = { ...request.confirmation };
  Object.assign(payload, organizationClaims(tenant, request.organization));
  addCustomClaims(payload, request.customClaims);

  const typ = rfc9068 ? 'at+jwt' : 'JWT';
  let token: string;
  if (format.signing === 'HS256' && resourceServer.signing_secret_enc) {
    const secret = ctx.box.open(resourceServer.signing_secret_enc, signingSecretContext(tenant.id, resourceServer.id));
    token = signJwt(payload, { alg: 'HS256', typ }, secret);
  } else {
    const { signing } = await ctx.keyring.keys(tenant.id);
    token = signJwt(payload, { alg: SIGNING_ALG, typ, kid: signing.kid }, signing.privateKey);
  }
  return { token, expiresIn };
}

/** Custom claims after the token's own, which they never replace. */
export function addCustomClaims(payload: JWTPayload, claims: Readonly<Record<string, unknown>> | undefined): void {
  for (const [name, value] of Object.entries(claims ?? {})) if (!(name in payload)) payload[name] = value;
}
