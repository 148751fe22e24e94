import type { RouteOptions } from 'fastify';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { RESPONSE_TYPES } from '../authorize/request.js';

/**
 * GET /.well-known/openid-configuration (OpenID Connect Discovery 1.0 §3),
 * members in the order the service serves them, listing only what this
 * server implements.
 */
export function discoveryDocument(tenant: Tenant): Record<string, unknown> {
  const base = tenant.issuer;
  return {
    issuer: base,
    authorization_endpoint: `${base}authorize`,
    token_endpoint: `${base}oauth/token`,
    userinfo_endpoint: `${base}userinfo`,
    jwks_uri: `${base}.well-known/jwks.json`,
    revocation_endpoint: `${base}oauth/revoke`,
    end_session_endpoint: `${base}oidc/logout`,
    scopes_supported: ['openid', 'profile', 'email', 'offline_access'],
    grant_types_supported: ['authorization_code', 'implicit', 'client_credentials', 'password', 'http://auth0.com/oauth/grant-type/password-realm', 'refresh_token'],
    response_types_supported: [...RESPONSE_TYPES],
    response_modes_supported: ['query', 'fragment', 'form_post', 'web_message'],
    code_challenge_methods_supported: ['S256'],
    subject_types_supported: ['public'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    claims_supported: ['aud', 'email', 'email_verified', 'exp', 'family_name', 'given_name', 'iat', 'iss', 'name', 'nickname', 'picture', 'sub', 'updated_at'],
    id_token_signing_alg_values_supported: ['RS256'],
    request_uri_parameter_supported: false,
    request_parameter_supported: false,
  };
}

export function openidConfigurationEndpoint(): RouteOptions {
  return {
    method: 'GET',
    url: '/.well-known/openid-configuration',
    handler: async (request, reply) => reply.header('Cache-Control', 'public, max-age=300').send(discoveryDocument(request.tenant)),
  };
}
