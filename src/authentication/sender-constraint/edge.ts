/**
 * Client certificates from the customer's edge (the service's mTLS through a
 * customer edge network; authentication-api-wire-notes §1.2): the edge
 * terminates TLS and forwards
 *
 * - `client-certificate`: the leaf certificate, URL-encoded PEM, at most
 *   MAX_CERTIFICATE_BYTES;
 * - `client-certificate-ca-verified`: `SUCCESS`, or `FAILED` with an
 *   optional `:reason`;
 * - `cname-api-key`: the key of one of the tenant's verified self-managed
 *   custom domains.
 *
 * The headers are believed only with a matching key (compared as SHA-256
 * digests in constant time); otherwise they are ignored and the attempt is
 * logged. A believed certificate is on `request.edge` for client
 * authentication (tls_client_auth, self_signed_tls_client_auth) and for
 * certificate-bound tokens (RFC 8705 `cnf.x5t#S256`).
 */
import { createHash, timingSafeEqual, X509Certificate } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { secretHash } from '../../domain/secrets.js';
import type { CustomDomainStore } from '../../domain/custom-domains/store.js';

export const MAX_CERTIFICATE_BYTES = 4096;

export interface EdgeCertificate {
  certificate: X509Certificate;
  /** The edge verified the chain against its CAs (`SUCCESS`). */
  caVerified: boolean;
  /** base64url SHA-256 of the DER (RFC 8705 `x5t#S256`). */
  thumbprint: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The client certificate the tenant's edge vouched for, if any. */
    edge?: EdgeCertificate;
  }
}

const header = (request: FastifyRequest, name: string): string | undefined => {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
};

/** What trusting the edge's client certificates reads. */
export interface EdgeCertificateContext {
  readonly stores: { readonly customDomains: CustomDomainStore };
}

async function edgeKeyMatches(ctx: EdgeCertificateContext, tenantId: string, key: string): Promise<boolean> {
  const presented = Buffer.from(secretHash(key));
  let match = false;
  for (const hash of await ctx.stores.customDomains.edgeKeyHashes(tenantId)) {
    const stored = Buffer.from(hash);
    if (stored.length === presented.length && timingSafeEqual(stored, presented)) match = true;
  }
  return match;
}

/** Sets `request.edge` when the request carries a certificate its tenant's edge vouches for. */
export async function readEdgeCertificate(ctx: EdgeCertificateContext, request: FastifyRequest): Promise<void> {
  const encoded = header(request, 'client-certificate');
  if (encoded === undefined) return;
  const key = header(request, 'cname-api-key');
  if (key === undefined || key.length > 256 || !(await edgeKeyMatches(ctx, request.tenant.id, key))) {
    request.log.warn({ tenant: request.tenant.name }, 'client-certificate headers without a valid cname-api-key were ignored');
    return;
  }
  if (Buffer.byteLength(encoded) > MAX_CERTIFICATE_BYTES * 3) return;
  let pem: string;
  try {
    pem = decodeURIComponent(encoded);
  } catch {
    return;
  }
  if (Buffer.byteLength(pem) > MAX_CERTIFICATE_BYTES || (pem.match(/-----BEGIN CERTIFICATE-----/g) ?? []).length !== 1) return;
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(pem);
  } catch {
    return;
  }
  const verified = header(request, 'client-certificate-ca-verified');
  request.edge = {
    certificate,
    caVerified: verified === 'SUCCESS',
    thumbprint: createHash('sha256').update(certificate.raw).digest('base64url'),
  };
}
