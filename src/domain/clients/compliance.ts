/**
 * A client's `compliance_level`: the FAPI profile every endpoint enforces
 * for it (FAPI 1.0 Advanced §5.2; FAPI 2.0 Security Profile §5.3). The four
 * levels of the service's OpenAPI document share these rules:
 *
 * - authorization requests only through PAR, with PKCE (S256) and the `code`
 *   response type;
 * - client authentication by `private_key_jwt` (the `pkj` levels) or mTLS
 *   (`tls_client_auth`, `self_signed_tls_client_auth`: the `mtls_mtls` and
 *   `adv_mtls` levels);
 * - sender-constrained access tokens (DPoP or an mTLS certificate binding);
 * - authorization codes that live at most CODE_LIFETIME_SECONDS (FAPI 2.0
 *   §5.3.2.1: "shall issue authorization codes with a maximum lifetime of 60
 *   seconds");
 * - `iss` in every authorization response (RFC 9207; Gatehouse sends it to
 *   every client).
 *
 * - ID tokens signed PS256 (src/domain/keys/keyring.ts FAPI_SIGNING_ALG).
 */
import type { ClientRow } from '../rows.js';

export const COMPLIANCE_LEVELS = ['fapi1_adv_pkj_par', 'fapi1_adv_mtls_par', 'fapi2_sp_pkj_mtls', 'fapi2_sp_mtls_mtls'] as const;
export type ComplianceLevel = (typeof COMPLIANCE_LEVELS)[number];

export const CODE_LIFETIME_SECONDS = 60;

export interface ComplianceProfile {
  level: ComplianceLevel;
  /** The client authentication methods the profile allows. */
  authMethods: readonly string[];
}

const MTLS_METHODS = ['tls_client_auth', 'self_signed_tls_client_auth'];

/** The profile a client's `compliance_level` names; undefined for `none`, null or absent. */
export function complianceProfile(row: Pick<ClientRow, 'config'>): ComplianceProfile | undefined {
  const level = row.config.compliance_level;
  if (typeof level !== 'string' || !(COMPLIANCE_LEVELS as readonly string[]).includes(level)) return undefined;
  const pkj = level === 'fapi1_adv_pkj_par' || level === 'fapi2_sp_pkj_mtls';
  return { level: level as ComplianceLevel, authMethods: pkj ? ['private_key_jwt'] : MTLS_METHODS };
}
