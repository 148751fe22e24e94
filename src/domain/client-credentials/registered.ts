/**
 * A client's credentials as client authentication uses them, parsed once
 * (the issuance cache keeps them): each registered method
 * (`client_authentication_methods`: `private_key_jwt`, `tls_client_auth`,
 * `self_signed_tls_client_auth`, `signed_request_object`) with the
 * credentials it names, public keys as KeyObjects.
 */
import { createHash, createPublicKey, type KeyObject, type X509Certificate } from 'node:crypto';
import type { ClientAuthenticationMethods, ClientCredentialRow } from '../rows.js';

export interface RegisteredCredential {
  id: string;
  kid: string;
  credentialType: ClientCredentialRow['credential_type'];
  /** The `alg` a signature with this key must use (public_key). */
  alg?: string;
  key?: KeyObject;
  /** base64url SHA-256 of the certificate's DER (x509_cert, and a public_key given as a certificate). */
  thumbprint?: string;
  subjectDn?: string;
  /** Milliseconds since the epoch; undefined: never. */
  expiresAt?: number;
}

/** `client_authentication_methods` as stored: each method and the ids of the credentials it uses. */
export function methodCredentialIds(column: ClientAuthenticationMethods | null): Map<string, string[]> {
  const methods = new Map<string, string[]>();
  if (column === null || typeof column !== 'object') return methods;
  for (const [method, value] of Object.entries(column)) {
    const list: unknown = value?.credentials;
    const ids = Array.isArray(list) ? list.map((c) => (c as { id?: unknown } | null)?.id).filter((id): id is string => typeof id === 'string') : [];
    methods.set(method, ids);
  }
  return methods;
}

/** The SHA-256 thumbprint of a certificate, base64url (RFC 8705 §3.1 `x5t#S256`). */
export function certificateThumbprint(certificate: X509Certificate): string {
  return createHash('sha256').update(certificate.raw).digest('base64url');
}

/** A stored credential, parsed; undefined when its PEM no longer parses (it then authenticates nothing). */
export function parseCredential(row: ClientCredentialRow): RegisteredCredential | undefined {
  const base: RegisteredCredential = {
    id: row.id,
    kid: row.kid,
    credentialType: row.credential_type,
    ...(row.alg !== null && { alg: row.alg }),
    ...(row.thumbprint_sha256 !== null && { thumbprint: row.thumbprint_sha256 }),
    ...(row.subject_dn !== null && { subjectDn: row.subject_dn }),
    ...(row.expires_at !== null && { expiresAt: Date.parse(row.expires_at) }),
  };
  if (row.pem === null) return base;
  try {
    return { ...base, key: createPublicKey(row.pem) };
  } catch {
    return undefined;
  }
}

/** Whether the credential may be used at `now` (ms). */
export const usableAt = (credential: RegisteredCredential, now: number) => credential.expiresAt === undefined || credential.expiresAt > now;

/** The credential ids of a client's `signed_request_object.credentials` (JAR keys). */
export function requestObjectCredentialIds(config: Record<string, unknown>): string[] {
  const jar = config.signed_request_object as { credentials?: unknown } | null | undefined;
  const list = jar?.credentials;
  return Array.isArray(list) ? list.map((c) => (c as { id?: unknown } | null)?.id).filter((id): id is string => typeof id === 'string') : [];
}

/** Why no registered key may verify a JWT: none usable, none with its `kid`, none registered for its `alg`. */
export type KeyProblem = 'no_usable_key' | 'unknown_kid' | 'wrong_alg';

/** The registered keys a JWT with this header may be signed with at `now` (ms): unexpired, its `kid` when it names one, its `alg`. */
export function candidateKeys(credentials: readonly RegisteredCredential[], alg: string, kid: string | undefined, now: number): RegisteredCredential[] | KeyProblem {
  const usable = credentials.filter((c) => c.key !== undefined && usableAt(c, now));
  if (usable.length === 0) return 'no_usable_key';
  const named = kid === undefined ? usable : usable.filter((c) => c.kid === kid);
  if (named.length === 0) return 'unknown_kid';
  const matching = named.filter((c) => (c.alg ?? 'RS256') === alg);
  return matching.length === 0 ? 'wrong_alg' : matching;
}
