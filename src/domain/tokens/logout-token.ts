/**
 * Logout tokens (OpenID Connect Back-Channel Logout 1.0 §2.4): a JWT signed
 * with the tenant's key, header `typ: logout+jwt` (§2.4 recommends the
 * explicit type), claims `iss`, `sub`, `aud` (the client), `iat`, `exp` (two
 * minutes: a token is signed for each delivery attempt, so none goes out
 * stale), `jti`, `events` with the back-channel logout event, and `sid` (the
 * ID tokens' `sid`). Never a `nonce` (§2.4).
 */
import { randomBytes } from 'node:crypto';
import { signJwt } from '../../platform/crypto/jws.js';
import { SIGNING_ALG, type Keyring } from '../keys/keyring.js';
import type { Tenant } from '../tenants/tenant.js';

export const BACKCHANNEL_LOGOUT_EVENT = 'http://schemas.openid.net/event/backchannel-logout';
const LOGOUT_TOKEN_LIFETIME = 120;

/** What signing logout tokens takes. */
export interface LogoutTokenContext {
  readonly keyring: Keyring;
  readonly now: () => number;
}

export async function issueLogoutToken(
  ctx: LogoutTokenContext,
  tenant: Tenant,
  request: { clientId: string; sub: string; sid: string },
): Promise<string> {
  const iat = Math.floor(ctx.now() / 1000);
  const { signing } = await ctx.keyring.keys(tenant.id);
  return signJwt(
    {
      iss: tenant.issuer,
      sub: request.sub,
      aud: request.clientId,
      iat,
      exp: iat + LOGOUT_TOKEN_LIFETIME,
      jti: randomBytes(16).toString('base64url'),
      events: { [BACKCHANNEL_LOGOUT_EVENT]: {} },
      sid: request.sid,
    },
    { alg: SIGNING_ALG, typ: 'logout+jwt', kid: signing.kid },
    signing.privateKey,
  );
}
