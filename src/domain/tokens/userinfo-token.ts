/**
 * Access tokens for /userinfo alone: what a user grant without an audience
 * (and no tenant default audience) issues (authentication-api-wire-notes §6
 * "No audience"). The service issues an opaque JWE there; Gatehouse issues a
 * JWT signed with the tenant key whose only audience is
 * `https://{domain}/userinfo`, which clients must treat as opaque all the same.
 * /userinfo verifies it like any other token carrying that audience.
 */
import { signJwt } from '../../platform/crypto/jws.js';
import { SIGNING_ALG, type Keyring } from '../keys/keyring.js';
import { lifetimeOf } from '../lifetimes.js';
import type { Tenant } from '../tenants/tenant.js';
import type { Confirmation } from './confirmation.js';

/** `https://{domain}/userinfo`: the userinfo endpoint's audience. */
export function userinfoAudience(tenant: Pick<Tenant, 'issuer'>): string {
  return `${tenant.issuer}userinfo`;
}

export interface UserinfoTokenRequest {
  tenant: Tenant;
  userId: string;
  clientId: string;
  /** Granted OIDC scopes, space-separated; the claim is omitted when empty. */
  scope: string;
  grantType?: string;
  /** Seconds; the tenant's `userinfo_token` lifetime (src/domain/lifetimes.ts) unless given. */
  lifetime?: number;
  /** `cnf` of a sender-constrained token (DPoP). */
  confirmation?: Confirmation;
}

/** What signing userinfo responses takes. */
export interface UserinfoTokenContext {
  readonly keyring: Keyring;
  readonly now: () => number;
}

export async function issueUserinfoAccessToken(
  ctx: UserinfoTokenContext,
  request: UserinfoTokenRequest,
): Promise<{ token: string; expiresIn: number }> {
  const iat = Math.floor(ctx.now() / 1000);
  const lifetime = request.lifetime ?? lifetimeOf(request.tenant, 'userinfo_token');
  const payload: Record<string, unknown> = {
    iss: request.tenant.issuer,
    sub: request.userId,
    aud: userinfoAudience(request.tenant),
    iat,
    exp: iat + lifetime,
  };
  if (request.scope) payload.scope = request.scope;
  if (request.grantType) payload.gty = request.grantType;
  payload.azp = request.clientId;
  if (request.confirmation) payload.cnf = { ...request.confirmation };
  const { signing } = await ctx.keyring.keys(request.tenant.id);
  const token = signJwt(payload, { alg: SIGNING_ALG, typ: 'JWT', kid: signing.kid }, signing.privateKey);
  return { token, expiresIn: lifetime };
}
