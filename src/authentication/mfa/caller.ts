/**
 * Who calls the MFA API (wire notes §13 "Auth"): `Authorization: Bearer`
 * with either
 *
 * - the `mfa_token` of an `mfa_required` answer: the user and client it was
 *   issued for; it may list authenticators, challenge them, and enrol while
 *   the user has no confirmed second factor (after that, enrolling needs an
 *   access token with `enroll`, which only a second factor yields);
 * - an access token for `https://{domain}/mfa/` (src/domain/mfa/api-token.ts)
 *   with the scopes `enroll`, `read:authenticators`, `remove:authenticators`.
 *
 * Refusals are the OAuth JSON shape: 401 `unauthorized` for a missing or bad
 * token, 401 `expired_token` for an expired one, 403 `access_denied` for a
 * missing scope.
 */
import type { FastifyRequest } from 'fastify';
import { MFA_API_SCOPES, type MfaApiScope } from '../../domain/mfa/api-token.js';
import { openMfaToken, type MfaTokenContext } from '../../domain/mfa/mfa-token.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { verifyTenantJwt } from '../../domain/tokens/verify.js';
import { requireActiveUser } from '../../domain/users/active-user.js';
import type { UserRow } from '../../domain/users/model.js';
import { oauthErrors } from '../../platform/http/errors.js';
import type { UserStore } from '../../domain/users/store.js';
import type { Keyring } from '../../domain/keys/keyring.js';

export interface MfaCaller {
  user: UserRow;
  clientId: string;
  /** The token was the mfa_token itself. */
  viaMfaToken: boolean;
  scopes: ReadonlySet<MfaApiScope>;
}

const unauthorized = oauthErrors.unauthorized;
const expired = () => oauthErrors.expiredToken('mfa_token is expired', 401);

function bearer(request: FastifyRequest): string {
  const header = request.headers.authorization;
  if (header === undefined) throw unauthorized('Missing authorization header');
  const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header);
  if (!match || match[1]!.length > 4096) throw unauthorized('Bad authorization header');
  return match[1]!;
}

const callerRefusals = { missing: () => unauthorized('Invalid token'), blocked: () => unauthorized('user is blocked') };

/** What identifying the /mfa API's caller touches. */
export interface MfaCallerContext extends MfaTokenContext {
  readonly keyring: Keyring;
  readonly stores: MfaTokenContext['stores'] & { readonly users: UserStore };
}

export async function mfaCaller(ctx: MfaCallerContext, tenant: Tenant, request: FastifyRequest): Promise<MfaCaller> {
  const token = bearer(request);
  if (token.startsWith('v1.')) {
    const opened = await openMfaToken(ctx, tenant, token);
    if (!opened.ok) throw opened.failure === 'expired' ? expired() : unauthorized('Invalid token');
    const user = await requireActiveUser(ctx.stores.users, tenant.id, opened.claims.sub, callerRefusals);
    return { user, clientId: opened.claims.client_id, viaMfaToken: true, scopes: new Set(['read:authenticators', 'enroll']) };
  }
  const verified = await verifyTenantJwt(ctx, tenant, token, 'mfa_api');
  if (!verified.ok) throw verified.failure === 'expired' ? oauthErrors.expiredToken('The token has expired', 401) : unauthorized('Invalid token');
  const { payload } = verified;
  const granted = new Set(typeof payload.scope === 'string' ? payload.scope.split(' ') : []);
  const user = await requireActiveUser(ctx.stores.users, tenant.id, payload.sub!, callerRefusals);
  return {
    user,
    clientId: typeof payload.azp === 'string' ? payload.azp : '',
    viaMfaToken: false,
    scopes: new Set(MFA_API_SCOPES.filter((s) => granted.has(s))),
  };
}

export function requireScope(caller: MfaCaller, scope: MfaApiScope): void {
  if (!caller.scopes.has(scope)) throw oauthErrors.accessDenied(`Insufficient scope, expected: ${scope}`);
}
