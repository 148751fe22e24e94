/**
 * A credential as the Management API registers it (POST
 * /clients/{id}/credentials, or inline in `client_authentication_methods` of
 * a new client): the PEM is parsed once here, and what authentication later
 * compares is derived from it.
 *
 * - `public_key`: an SPKI or PKCS#1 RSA public key, or an X.509 certificate
 *   whose key is taken; `alg` RS256 (default), RS384 or PS256; RSA keys of at
 *   least 2048 bits; `expires_at`, or the certificate's notAfter with
 *   `parse_expiry_from_cert`.
 * - `x509_cert` (self-signed mTLS): a certificate, matched later by its
 *   SHA-256 thumbprint.
 * - `cert_subject_dn` (CA-signed mTLS): a subject DN, given as such or taken
 *   from a certificate's PEM (mutually exclusive).
 *
 * `kid`: the caller's (`[0-9a-zA-Z-_]{10,64}`) or, where none is given, the
 * RFC 7638 thumbprint of the public key (`public_key`), the certificate's
 * SHA-256 thumbprint (`x509_cert`) or the SHA-256 of the canonical subject
 * (`cert_subject_dn`): 43 characters, stable for one key, certificate or DN.
 * The service generates its own form of kid and does not document it; the
 * thumbprint is Gatehouse's choice.
 */
import { createHash, createPublicKey, X509Certificate, type KeyObject } from 'node:crypto';
import { calculateJwkThumbprint, type JWK } from 'jose';
import type { ClientCredentialRow } from '../rows.js';
import { canonicalDn } from './subject-dn.js';

export const CREDENTIAL_ALGS = ['RS256', 'RS384', 'PS256'] as const;
export const MIN_RSA_BITS = 2048;
/** The PEM text a credential may carry (a certificate chain is not a credential). */
export const MAX_PEM_LENGTH = 8192;

export interface CredentialInput {
  credential_type: ClientCredentialRow['credential_type'];
  name?: string;
  pem?: string;
  subject_dn?: string;
  alg?: string;
  parse_expiry_from_cert?: boolean;
  expires_at?: string;
  kid?: string;
}

/** A credential the input cannot make; `property` names the member at fault. */
export class CredentialInputError extends Error {
  constructor(
    readonly property: string,
    message: string,
  ) {
    super(message);
  }
}

interface ParsedPem {
  key: KeyObject;
  certificate?: X509Certificate;
}

function parsePem(pem: string): ParsedPem {
  if (pem.length > MAX_PEM_LENGTH) throw new CredentialInputError('pem', `PEM is too long (at most ${MAX_PEM_LENGTH} characters)`);
  if (pem.includes('CERTIFICATE-----')) {
    let certificate: X509Certificate;
    try {
      certificate = new X509Certificate(pem);
    } catch {
      throw new CredentialInputError('pem', 'The PEM is not a valid X.509 certificate');
    }
    return { key: certificate.publicKey, certificate };
  }
  try {
    return { key: createPublicKey(pem) };
  } catch {
    throw new CredentialInputError('pem', 'The PEM is not a valid public key (SPKI or PKCS#1) or X.509 certificate');
  }
}

function requireRsa(key: KeyObject): void {
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
  if (key.asymmetricKeyType !== 'rsa') throw new CredentialInputError('pem', 'Only RSA public keys are supported');
  if (bits < MIN_RSA_BITS) throw new CredentialInputError('pem', `The RSA key must be at least ${MIN_RSA_BITS} bits`);
}

const thumbprintOf = (certificate: X509Certificate) => createHash('sha256').update(certificate.raw).digest('base64url');

const keyThumbprint = (key: KeyObject) => calculateJwkThumbprint(key.export({ format: 'jwk' }) as JWK, 'sha256');

/** The row a credential input makes, or a CredentialInputError. */
export async function newCredentialRow(
  input: CredentialInput,
  ids: { tenantId: string; clientId: string; id: string; now: string },
): Promise<ClientCredentialRow> {
  const base = {
    tenant_id: ids.tenantId,
    id: ids.id,
    client_id: ids.clientId,
    credential_type: input.credential_type,
    name: input.name ?? '',
    created_at: ids.now,
    updated_at: ids.now,
  };
  const notForType = (property: keyof CredentialInput) => {
    if (input[property] !== undefined) throw new CredentialInputError(property, `${property} does not apply to credential_type ${input.credential_type}`);
  };
  switch (input.credential_type) {
    case 'public_key': {
      notForType('subject_dn');
      if (input.pem === undefined) throw new CredentialInputError('pem', 'pem is required for credential_type public_key');
      if (input.parse_expiry_from_cert && input.expires_at !== undefined) {
        throw new CredentialInputError('expires_at', 'expires_at cannot be combined with parse_expiry_from_cert');
      }
      const { key, certificate } = parsePem(input.pem);
      requireRsa(key);
      const alg = input.alg ?? 'RS256';
      if (!(CREDENTIAL_ALGS as readonly string[]).includes(alg)) throw new CredentialInputError('alg', `alg must be one of ${CREDENTIAL_ALGS.join(', ')}`);
      let expiresAt = input.expires_at === undefined ? null : new Date(input.expires_at).toISOString();
      if (input.parse_expiry_from_cert) {
        if (!certificate) throw new CredentialInputError('parse_expiry_from_cert', 'parse_expiry_from_cert needs a certificate in pem');
        expiresAt = new Date(certificate.validTo).toISOString();
      }
      return {
        ...base,
        kid: input.kid ?? (await keyThumbprint(key)),
        alg,
        pem: input.pem,
        subject_dn: null,
        thumbprint_sha256: certificate ? thumbprintOf(certificate) : null,
        expires_at: expiresAt,
      };
    }
    case 'x509_cert': {
      for (const p of ['subject_dn', 'alg', 'parse_expiry_from_cert', 'expires_at'] as const) notForType(p);
      if (input.pem === undefined) throw new CredentialInputError('pem', 'pem is required for credential_type x509_cert');
      const { certificate } = parsePem(input.pem);
      if (!certificate) throw new CredentialInputError('pem', 'credential_type x509_cert needs an X.509 certificate');
      const thumbprint = thumbprintOf(certificate);
      return {
        ...base,
        kid: input.kid ?? thumbprint,
        alg: null,
        pem: input.pem,
        subject_dn: canonicalDn(certificate.subject),
        thumbprint_sha256: thumbprint,
        expires_at: new Date(certificate.validTo).toISOString(),
      };
    }
    case 'cert_subject_dn': {
      for (const p of ['alg', 'parse_expiry_from_cert', 'expires_at'] as const) notForType(p);
      if ((input.pem === undefined) === (input.subject_dn === undefined)) {
        throw new CredentialInputError('subject_dn', 'Exactly one of subject_dn and pem is required for credential_type cert_subject_dn');
      }
      let subject: string;
      let certificate: X509Certificate | undefined;
      if (input.pem !== undefined) {
        certificate = parsePem(input.pem).certificate;
        if (!certificate) throw new CredentialInputError('pem', 'credential_type cert_subject_dn takes a certificate in pem');
        subject = canonicalDn(certificate.subject);
      } else {
        subject = canonicalDn(input.subject_dn!);
        if (!subject) throw new CredentialInputError('subject_dn', 'subject_dn is not a distinguished name');
      }
      return {
        ...base,
        kid: input.kid ?? createHash('sha256').update(subject).digest('base64url'),
        alg: null,
        pem: null,
        subject_dn: subject,
        thumbprint_sha256: null,
        expires_at: certificate ? new Date(certificate.validTo).toISOString() : null,
      };
    }
  }
}
