/**
 * GET /.well-known/openid-configuration (OpenID Connect Discovery 1.0 §3),
 * members in the order the service serves them. Everything this server
 * supports is derived from the registries (../registries.ts) and the modules
 * that define scopes and claims, so the document cannot claim what is not
 * there nor miss what is.
 */
import type { RouteOptions } from 'fastify';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { FAPI_SIGNING_ALG, SIGNING_ALG } from '../../domain/keys/keyring.js';
import { SUPPORTED_CLAIMS } from '../../domain/tokens/id-token.js';
import type { AuthenticationRegistries } from '../registries.js';
import { DPOP_ALGS } from '../sender-constraint/dpop.js';
import { REQUEST_OBJECT_ALGS } from '../authorize/request-object.js';
import { OIDC_SCOPES } from '../token/user-tokens.js';
import { OFFLINE_ACCESS } from '../token/refresh-tokens.js';
import { DISCOVERY_PATH, DOCUMENT_CONTENT_TYPE, cachedDiscoveryDocument, documentHeaders, notModified, type StaticDocument } from './documents.js';

/** Response types that return tokens from /authorize need the `implicit` grant (OAuth 2.0 Multiple Response Type Encoding Practices §3). */
const IMPLICIT = 'implicit';

export function discoveryDocument(tenant: Tenant, registries: AuthenticationRegistries): Record<string, unknown> {
  const base = tenant.issuer;
  const assertionAlgs = [...new Set(registries.clientAuthMethods.flatMap((m) => (m.advertised ? (m.signingAlgs ?? []) : [])))];
  const implicit = registries.responseTypes.some((t) => t.split(' ').some((part) => part === 'token' || part === 'id_token'));
  return {
    issuer: base,
    authorization_endpoint: `${base}authorize`,
    token_endpoint: `${base}oauth/token`,
    userinfo_endpoint: `${base}userinfo`,
    jwks_uri: `${base}.well-known/jwks.json`,
    revocation_endpoint: `${base}oauth/revoke`,
    end_session_endpoint: `${base}oidc/logout`,
    // OpenID Connect Back-Channel Logout 1.0 §2.1 (src/domain/backchannel-logout/): logout tokens carry `sid`.
    backchannel_logout_supported: true,
    backchannel_logout_session_supported: true,
    scopes_supported: [...OIDC_SCOPES, OFFLINE_ACCESS],
    grant_types_supported: [...registries.grants.map((g) => g.grantType), ...(implicit ? [IMPLICIT] : [])],
    response_types_supported: [...registries.responseTypes],
    response_modes_supported: registries.responseModes.map((m) => m.name),
    code_challenge_methods_supported: ['S256'],
    subject_types_supported: ['public'],
    token_endpoint_auth_methods_supported: registries.clientAuthMethods.filter((m) => m.advertised).map((m) => m.name),
    ...(assertionAlgs.length > 0 && { token_endpoint_auth_signing_alg_values_supported: assertionAlgs }),
    claims_supported: [...SUPPORTED_CLAIMS],
    id_token_signing_alg_values_supported: [SIGNING_ALG, FAPI_SIGNING_ALG],
    request_uri_parameter_supported: false,
    request_parameter_supported: true,
    request_object_signing_alg_values_supported: [...REQUEST_OBJECT_ALGS],
    // RFC 9126 §5: pushing is offered to every client; clients with require_pushed_authorization_requests must.
    pushed_authorization_request_endpoint: `${base}oauth/par`,
    require_pushed_authorization_requests: false,
    dpop_signing_alg_values_supported: [...DPOP_ALGS],
    authorization_response_iss_parameter_supported: true,
    tls_client_certificate_bound_access_tokens: true,
    // RFC 8705 §5: the edge that asks for client certificates answers on mtls.{custom domain}.
    ...(tenant.customDomain !== undefined && {
      mtls_endpoint_aliases: {
        token_endpoint: `https://mtls.${tenant.customDomain}/oauth/token`,
        revocation_endpoint: `https://mtls.${tenant.customDomain}/oauth/revoke`,
        pushed_authorization_request_endpoint: `https://mtls.${tenant.customDomain}/oauth/par`,
        userinfo_endpoint: `https://mtls.${tenant.customDomain}/userinfo`,
      },
    }),
    ...Object.assign({}, ...registries.grants.map((g) => g.discovery?.(base) ?? {})),
  };
}

/** The document's bytes and ETag, made once per tenant state (./documents.ts). */
export function discoveryStaticDocument(tenant: Tenant, registries: AuthenticationRegistries): StaticDocument {
  return cachedDiscoveryDocument(tenant, registries, () => discoveryDocument(tenant, registries));
}

export function openidConfigurationEndpoint(registries: AuthenticationRegistries): RouteOptions {
  return {
    method: 'GET',
    url: DISCOVERY_PATH,
    // Bytes, ETag and caching headers from ./documents.ts (which also answers this path on the real listener).
    handler: async (request, reply) => {
      const document = discoveryStaticDocument(request.tenant, registries);
      reply.headers(documentHeaders(document, request.headers.origin, request.tenant));
      if (notModified(request.headers['if-none-match'], document.etag)) return reply.code(304).send();
      return reply.type(DOCUMENT_CONTENT_TYPE).send(document.body);
    },
  };
}
