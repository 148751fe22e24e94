/**
 * Verifying a JWT the tenant issued, for one purpose, with one set of clock
 * rules. The surfaces that read back the tenant's own tokens (the Management
 * API's bearer tokens, /userinfo's, /oidc/logout's `id_token_hint`) call
 * `verifyTenantJwt(…, purpose)` and map the failure to their own refusal.
 *
 * Every purpose: RS256 under a key of the tenant's keyring named by `kid`,
 * the tenant's issuer, and the context's clock with a tolerance of 5 s for
 * clocks that differ between Gatehouse processes. Per purpose:
 *
 * - `management`: audience the tenant's Management API; `exp` and `sub` required;
 * - `userinfo`: audience the /userinfo audience; `exp` and `sub` required;
 * - `mfa_api`: audience the MFA API (`https://{domain}/mfa/`); `exp` and `sub` required;
 * - `id_token_hint`: any single audience (the client it was issued to);
 *   `exp` required but an expired token is accepted, as the hint only names
 *   a session (RP-Initiated Logout 1.0 §2);
 * - `link_with`: an ID token of the user to link (POST /api/v2/users/{id}/identities),
 *   RS256 only (the service's rule for it); `exp` required and enforced; the
 *   audience, which must be the calling client, is the caller's to check.
 */
import { errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';
import { algOfKid, FAPI_SIGNING_ALG, SIGNING_ALG, type Keyring } from '../keys/keyring.js';
import { acceptedIssuers, managementAudience, type Tenant } from '../tenants/tenant.js';
import { userinfoAudience } from './userinfo-token.js';
import { mfaAudience } from '../mfa/api-token.js';

export type TenantJwtPurpose = 'management' | 'userinfo' | 'id_token_hint' | 'mfa_api' | 'link_with';

/** Tolerated clock difference between Gatehouse processes, seconds. */
export const CLOCK_TOLERANCE_SECONDS = 5;

interface PurposeRules {
  audience?: (tenant: Tenant) => string;
  requiredClaims: string[];
  acceptExpired: boolean;
  /** Default: RS256 and the FAPI keys' PS256. */
  algorithms?: string[];
}

const PURPOSES: Readonly<Record<TenantJwtPurpose, PurposeRules>> = {
  management: { audience: managementAudience, requiredClaims: ['exp', 'sub'], acceptExpired: false },
  userinfo: { audience: userinfoAudience, requiredClaims: ['exp', 'sub'], acceptExpired: false },
  id_token_hint: { requiredClaims: ['exp'], acceptExpired: true },
  mfa_api: { audience: mfaAudience, requiredClaims: ['exp', 'sub'], acceptExpired: false },
  link_with: { requiredClaims: ['exp'], acceptExpired: false, algorithms: [SIGNING_ALG] },
};

/** Why a token was refused: `expired` and `audience` are told apart for the surfaces that say so. */
export type TenantJwtFailure = 'invalid' | 'expired' | 'audience';

export type TenantJwtResult = { ok: true; payload: JWTPayload } | { ok: false; failure: TenantJwtFailure };

export async function verifyTenantJwt(
  deps: { keyring: Pick<Keyring, 'verificationKey'>; now(): number },
  tenant: Tenant,
  token: string,
  purpose: TenantJwtPurpose,
): Promise<TenantJwtResult> {
  const rules = PURPOSES[purpose];
  try {
    const { payload } = await jwtVerify(
      token,
      async (header) => {
        const key = typeof header.kid === 'string' && header.alg === algOfKid(header.kid) ? await deps.keyring.verificationKey(tenant.id, header.kid) : undefined;
        if (!key) throw new joseErrors.JWSSignatureVerificationFailed();
        return key;
      },
      {
        algorithms: rules.algorithms ?? [SIGNING_ALG, FAPI_SIGNING_ALG],
        issuer: acceptedIssuers(tenant),
        ...(rules.audience && { audience: rules.audience(tenant) }),
        requiredClaims: rules.requiredClaims,
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        currentDate: new Date(deps.now()),
      },
    );
    return checked(payload, rules);
  } catch (error) {
    // jose checks the signature, then iss and aud, before exp: an expired token here is otherwise valid.
    if (error instanceof joseErrors.JWTExpired) return rules.acceptExpired ? checked(error.payload, rules) : { ok: false, failure: 'expired' };
    if (error instanceof joseErrors.JWTClaimValidationFailed && error.claim === 'aud') return { ok: false, failure: 'audience' };
    return { ok: false, failure: 'invalid' };
  }
}

function checked(payload: JWTPayload, rules: PurposeRules): TenantJwtResult {
  if (rules.requiredClaims.includes('sub') && typeof payload.sub !== 'string') return { ok: false, failure: 'invalid' };
  if (typeof payload.exp !== 'number') return { ok: false, failure: 'invalid' };
  return { ok: true, payload };
}
