/**
 * Sender-constrained tokens: the `cnf` claim (RFC 7800) an access token
 * carries when its client proved possession of a key, and the token type
 * that goes with it. DPoP (RFC 9449) binds to the JWK thumbprint (`jkt`).
 */

export interface Confirmation {
  /** base64url SHA-256 JWK thumbprint of the DPoP key (RFC 9449 §6.1). */
  jkt?: string;
  /** base64url SHA-256 of the client certificate's DER (RFC 8705 §3.1). */
  'x5t#S256'?: string;
}

export type TokenType = 'Bearer' | 'DPoP';

/** `DPoP` for a token bound to a DPoP key, else `Bearer`. */
export function tokenTypeOf(confirmation: Confirmation | undefined): TokenType {
  return confirmation?.jkt !== undefined ? 'DPoP' : 'Bearer';
}

/** The `cnf` claim of a verified token payload, if it is one. */
export function confirmationOf(payload: Record<string, unknown>): Confirmation | undefined {
  const cnf = payload.cnf;
  if (cnf === null || typeof cnf !== 'object' || Array.isArray(cnf)) return undefined;
  const { jkt, 'x5t#S256': x5t } = cnf as Record<string, unknown>;
  return { ...(typeof jkt === 'string' && { jkt }), ...(typeof x5t === 'string' && { 'x5t#S256': x5t }) };
}
