/**
 * Access tokens for the MFA API (`https://{domain}/mfa/`, wire notes §13):
 * issued by the MFA grants when the login asked for that audience, for the
 * scopes asked among `enroll`, `read:authenticators` and
 * `remove:authenticators` (all three when none was asked), for the
 * `mfa_api_token` lifetime (10 minutes, as the service). No resource server
 * row stands for this API: it is the tenant's own, like the Management API,
 * but fixed.
 */
import { signJwt } from '../../platform/crypto/jws.js';
import { SIGNING_ALG, type Keyring } from '../keys/keyring.js';
import { lifetimeOf } from '../lifetimes.js';
import type { Tenant } from '../tenants/tenant.js';

export const MFA_API_SCOPES = ['enroll', 'read:authenticators', 'remove:authenticators'] as const;
export type MfaApiScope = (typeof MFA_API_SCOPES)[number];

export function mfaAudience(tenant: Pick<Tenant, 'domain'>): string {
  return `https://${tenant.domain}/mfa/`;
}

/** The MFA API scopes among `requested` (space-separated); all of them when nothing was asked. */
export function mfaApiScopes(requested: string | undefined): MfaApiScope[] {
  if (requested === undefined) return [...MFA_API_SCOPES];
  const asked = new Set(requested.split(' '));
  return MFA_API_SCOPES.filter((s) => asked.has(s));
}

/** What MFA API tokens take. */
export interface MfaApiTokenContext {
  readonly keyring: Keyring;
  readonly now: () => number;
}

export async function issueMfaApiToken(
  ctx: MfaApiTokenContext,
  request: { tenant: Tenant; userId: string; clientId: string; scopes: readonly string[] },
): Promise<{ token: string; expiresIn: number }> {
  const { tenant } = request;
  const iat = Math.floor(ctx.now() / 1000);
  const expiresIn = lifetimeOf(tenant, 'mfa_api_token');
  const { signing } = await ctx.keyring.keys(tenant.id);
  const token = signJwt(
    {
      iss: tenant.issuer,
      sub: request.userId,
      aud: mfaAudience(tenant),
      iat,
      exp: iat + expiresIn,
      scope: request.scopes.join(' '),
      azp: request.clientId,
    },
    { alg: SIGNING_ALG, typ: 'JWT', kid: signing.kid },
    signing.privateKey,
  );
  return { token, expiresIn };
}
