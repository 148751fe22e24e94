/**
 * The rows of this entity's tables as its store reads and writes them (src/storage/schema.ts maps
 * the tables to them): booleans as integers (0/1), timestamps as ISO-8601 text in UTC, JSON columns
 * as typed values (src/storage/json-columns.ts parses and serialises them).
 */
/** A client's registered public key or certificate (migration 0014). */
export interface ClientCredentialRow {
  tenant_id: string;
  /** `cred_…` */
  id: string;
  client_id: string;
  credential_type: 'public_key' | 'cert_subject_dn' | 'x509_cert';
  name: string;
  kid: string;
  /** RS256, RS384 or PS256 for `public_key`; null for the certificate types. */
  alg: string | null;
  /** The PEM as registered (public key or certificate); null for `cert_subject_dn`. */
  pem: string | null;
  subject_dn: string | null;
  /** base64url SHA-256 of the certificate's DER, for `x509_cert` (and `public_key` given as a certificate). */
  thumbprint_sha256: string | null;
  expires_at: string | null;
  created_at: string;
  updated_at: string;
}
