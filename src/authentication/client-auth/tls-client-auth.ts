/**
 * mTLS client authentication through the tenant's edge (RFC 8705 §2;
 * ../sender-constraint/edge.ts): a request with `client_id` and a believed
 * client certificate.
 *
 * - `tls_client_auth`: the edge verified the certificate against its CAs
 *   (`SUCCESS`), and its subject DN is one of the client's `cert_subject_dn`
 *   credentials (compared in canonical form).
 * - `self_signed_tls_client_auth`: the certificate the edge could not verify
 *   is one of the client's `x509_cert` credentials itself (SHA-256 thumbprint).
 *
 * The edge's verdict decides which of the two a request is, so that one
 * certificate never presents both.
 */
import { usableAt } from '../../domain/client-credentials/registered.js';
import { canonicalDn } from '../../domain/client-credentials/subject-dn.js';
import { oauthErrors } from '../../platform/http/errors.js';
import type { ClientAuthMethod } from './method.js';

const refuse = (description: string) => oauthErrors.invalidClient(description);

export const tlsClientAuth: ClientAuthMethod = {
  name: 'tls_client_auth',
  parameters: [],
  confidential: true,
  advertised: true,
  detect(request, params) {
    if (!request.edge?.caVerified || !params.client_id) return undefined;
    return { method: 'tls_client_auth', clientId: params.client_id };
  },
  async verify(ctx, _tenant, client, _credentials, request) {
    const subject = canonicalDn(request.edge!.certificate.subject);
    const registered = (client.credentials.get('tls_client_auth') ?? []).filter((c) => usableAt(c, ctx.now()));
    if (!registered.some((c) => c.subjectDn === subject)) throw refuse('The client certificate subject is not one the client registered for tls_client_auth');
  },
};

export const selfSignedTlsClientAuth: ClientAuthMethod = {
  name: 'self_signed_tls_client_auth',
  parameters: [],
  confidential: true,
  advertised: true,
  detect(request, params) {
    if (!request.edge || request.edge.caVerified || !params.client_id) return undefined;
    return { method: 'self_signed_tls_client_auth', clientId: params.client_id };
  },
  async verify(ctx, _tenant, client, _credentials, request) {
    const registered = (client.credentials.get('self_signed_tls_client_auth') ?? []).filter((c) => usableAt(c, ctx.now()));
    if (!registered.some((c) => c.thumbprint === request.edge!.thumbprint)) {
      throw refuse('The client certificate is not one the client registered for self_signed_tls_client_auth');
    }
  },
};
