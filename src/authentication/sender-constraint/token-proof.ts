/**
 * Proof of possession at the endpoints that issue tokens or bind requests
 * (/oauth/token, /oauth/par): a DPoP proof, when sent, is checked and its
 * key bound (RFC 9449 §5, §10); a client with `require_proof_of_possession`
 * must send one. Refusals are the endpoint's JSON errors
 * (`invalid_dpop_proof`, `use_dpop_nonce`), with the nonce to use in
 * `DPoP-Nonce`.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { IssuanceClient } from '../../domain/issuance/lookups.js';
import { complianceProfile } from '../../domain/clients/compliance.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import type { Confirmation } from '../../domain/tokens/confirmation.js';
import { OAuthError, oauthErrors } from '../../platform/http/errors.js';
import { dpopHeader, DPOP_ERRORS, verifyDpopProof, withNonce, type DpopContext } from './dpop.js';

const CERTIFICATE_METHODS: ReadonlySet<string> = new Set(['tls_client_auth', 'self_signed_tls_client_auth']);

/** Whether the client's tokens must be sender-constrained (the service's `require_proof_of_possession`, or a compliance level). */
export const requiresProofOfPossession = (client: IssuanceClient) =>
  client.row.config.require_proof_of_possession === true || complianceProfile(client.row) !== undefined;

/** The key the request proved possession of, if any; `endpoint` is the URL its `htu` must name. */
export async function proofOfPossession(
  ctx: DpopContext,
  tenant: Tenant,
  request: FastifyRequest,
  reply: FastifyReply,
  client: IssuanceClient,
  endpoint: string,
  options: { enforceClientRequirement: boolean; authenticatedWith?: string } = { enforceClientRequirement: true },
): Promise<Confirmation | undefined> {
  try {
    const proof = dpopHeader(request);
    if (proof === undefined) {
      // A client that authenticated with its certificate gets certificate-bound tokens when it must be sender-constrained (RFC 8705 §3).
      if (request.edge && options.authenticatedWith && CERTIFICATE_METHODS.has(options.authenticatedWith) && requiresProofOfPossession(client)) {
        return { 'x5t#S256': request.edge.thumbprint };
      }
      if (options.enforceClientRequirement && requiresProofOfPossession(client)) {
        throw oauthErrors.invalidRequest('This client requires sender-constrained tokens: send a DPoP proof or authenticate with a client certificate');
      }
      return undefined;
    }
    withNonce(ctx, tenant, reply);
    return { jkt: await verifyDpopProof(ctx, tenant, request, proof, { htu: endpoint }) };
  } catch (error) {
    // A refused proof is answered with the nonce to use (RFC 9449 §8).
    if (error instanceof OAuthError && DPOP_ERRORS.has(error.error)) withNonce(ctx, tenant, reply);
    throw error;
  }
}
