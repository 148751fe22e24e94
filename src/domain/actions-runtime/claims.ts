/**
 * Which custom claims an action may set (actions-wire-notes §2.3 "Custom
 * claims"): a restricted claim is dropped, silently ("the transaction won't
 * fail, but your custom claim won't be added"); so is a claim in one of the
 * service's own namespaces; access tokens for the tenant's Management API
 * take namespaced claims only; all custom claims of a token together are at
 * most 100 KB. (`scope` itself throws in the sandbox, as the service's
 * runtime does.)
 */

export const RESTRICTED_CLAIMS: ReadonlySet<string> = new Set(
  (
    'acr act active amr at_hash ath attest aud auth_time authorization_details azp c_hash client_id cnf cty dest entitlements events exp ' +
    'groups gty htm htu iat internalService iss jcard jku jti jwe jwk kid may_act mky nbf nonce object_id org_id org_name orig origid ' +
    'permissions roles rph s_hash scope sid sip_callid sip_cseq_num sip_date sip_from_tag sip_via_branch sub sub_jwk toe txn typ uuid vot vtm x5t#S256'
  ).split(' '),
);

/** Namespaces that belong to the service: claims under them are dropped. */
const RESERVED_NAMESPACES = [/^https?:\/\/([^/]*\.)?auth0\.com(\/|$)/i, /^https?:\/\/([^/]*\.)?webtask\.(io|run)(\/|$)/i, /^urn:auth0(:|$)/i];

/** The most custom-claim JSON one token takes. */
export const CUSTOM_CLAIMS_MAX_BYTES = 100 * 1024;
const CLAIM_NAME_MAX = 256;

function namespaced(name: string): boolean {
  return /^https?:\/\//i.test(name) || /^urn:/i.test(name);
}

/** Whether `name` may be set as a custom claim of the token; `namespacedOnly` for access tokens of the tenant's own APIs. */
export function claimAllowed(name: string, options: { namespacedOnly: boolean }): boolean {
  if (name.length === 0 || name.length > CLAIM_NAME_MAX) return false;
  // Assigned as `claims[name]`, `__proto__` would replace the claims object's prototype rather than add a claim.
  if (name === '__proto__') return false;
  if (RESTRICTED_CLAIMS.has(name)) return false;
  if (RESERVED_NAMESPACES.some((pattern) => pattern.test(name))) return false;
  if (options.namespacedOnly && !namespaced(name)) return false;
  return true;
}

/** Sets the claim when allowed and when the token's custom claims stay within the bound. */
export function setClaim(claims: Record<string, unknown>, name: unknown, value: unknown, options: { namespacedOnly: boolean }): void {
  if (typeof name !== 'string' || !claimAllowed(name, options)) return;
  const next = { ...claims, [name]: value };
  if (Buffer.byteLength(JSON.stringify(next), 'utf8') > CUSTOM_CLAIMS_MAX_BYTES) return;
  claims[name] = value;
}
