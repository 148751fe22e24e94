/**
 * Client authentication as a pipeline of named steps (the registry's methods
 * detect and verify; nothing here knows a method by name but `none`):
 *
 * 1. detectCredentials: every method looks for its credentials; at most one
 *    explicit method may find any (RFC 6749 §2.3), `none` only alone;
 * 2. checkClientIdAgrees: a `client_id` parameter must name the same client;
 * 3. loadClient: an unknown client is a failed authentication;
 * 4. checkMethodRegistered: the client must be registered for the method
 *    presented, and its compliance level (FAPI) must allow it: the methods of its `client_authentication_methods` when it
 *    has them (private_key_jwt, mTLS), `none` for a public client, else
 *    either secret method (the service accepts a confidential client's secret
 *    in the Basic header or the body, whatever its `token_endpoint_auth_method`);
 * 5. the method verifies the credentials.
 *
 * Errors: a wrong, missing or unusable secret is the service's 401
 * `access_denied` "Unauthorized"; a client registered for another kind of
 * credential, and credentials no registered method takes (a client assertion
 * before private_key_jwt is registered), are 401 `invalid_client`.
 */
import type { FastifyRequest } from 'fastify';
import type { IssuanceClient, IssuanceLookups } from '../../domain/issuance/lookups.js';
import { complianceProfile } from '../../domain/clients/compliance.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import { oauthErrors } from '../../platform/http/errors.js';
import type { Params } from '../params.js';
import type { AuthenticatedClient, ClientAuthContext, ClientAuthMethod, PresentedCredentials } from './method.js';

/** What authenticating a client touches: the cached client, and what the methods verify with. */
export interface ClientAuthenticationContext extends ClientAuthContext {
  readonly lookups: IssuanceLookups;
}

/** Parameters of client authentication the endpoints always read: `client_id`, and a client assertion's (RFC 7521 §4.2), to refuse one no method takes. */
export const CLIENT_AUTHENTICATION_PARAMETERS: readonly string[] = ['client_id', 'client_assertion', 'client_assertion_type'];

/** Every parameter client authentication may read with these methods. */
export function clientAuthenticationParameters(methods: readonly ClientAuthMethod[]): string[] {
  return [...new Set([...CLIENT_AUTHENTICATION_PARAMETERS, ...methods.flatMap((m) => m.parameters)])];
}

function detectCredentials(methods: readonly ClientAuthMethod[], request: FastifyRequest, params: Params): { credentials: PresentedCredentials; method: ClientAuthMethod } {
  const found = methods.map((method) => ({ method, credentials: method.detect(request, params) })).filter((f) => f.credentials !== undefined);
  const explicit = found.filter((f) => f.method.confidential);
  if (explicit.length > 1) throw oauthErrors.invalidRequest('Only one client authentication method may be used per request');
  const chosen = explicit[0] ?? found[0];
  const claimsAssertion = methods.some((m) => m.parameters.includes('client_assertion'));
  if (!claimsAssertion && (params.client_assertion !== undefined || params.client_assertion_type !== undefined)) {
    throw oauthErrors.invalidClient('Client assertions (private_key_jwt) are not accepted by this server');
  }
  if (!chosen) throw oauthErrors.invalidRequest('Missing required parameter: client_id');
  return { credentials: chosen.credentials!, method: chosen.method };
}

function checkClientIdAgrees(credentials: PresentedCredentials, params: Params): void {
  if (params.client_id !== undefined && params.client_id !== credentials.clientId) {
    throw oauthErrors.invalidRequest('client_id does not match the client the credentials are for');
  }
}

async function loadClient(ctx: ClientAuthenticationContext, tenant: Tenant, clientId: string): Promise<IssuanceClient> {
  const client = await ctx.lookups.client(tenant.id, clientId);
  if (!client) throw oauthErrors.clientUnauthorized();
  return client;
}

/** The methods the client is registered for. */
export function registeredMethods(client: IssuanceClient): readonly string[] {
  if (client.authenticationMethods.length > 0) return client.authenticationMethods;
  if (client.row.token_endpoint_auth_method === 'none') return ['none'];
  return ['client_secret_basic', 'client_secret_post'];
}

function checkMethodRegistered(client: IssuanceClient, method: ClientAuthMethod): void {
  const profile = complianceProfile(client.row);
  if (profile && !profile.authMethods.includes(method.name)) {
    throw oauthErrors.invalidClient(`The client's compliance level (${profile.level}) requires ${profile.authMethods.join(' or ')}; ${method.name} is not allowed`);
  }
  const registered = registeredMethods(client);
  if (registered.includes(method.name)) return;
  // A public client sending a secret, or a confidential one sending none: a failed authentication.
  if (registered.includes('none') || method.name === 'none') throw oauthErrors.clientUnauthorized();
  throw oauthErrors.invalidClient(`This client must authenticate with ${registered.join(' or ')}; ${method.name} is not allowed for it`);
}

export async function authenticateClient(
  methods: readonly ClientAuthMethod[],
  ctx: ClientAuthenticationContext,
  tenant: Tenant,
  request: FastifyRequest,
  params: Params,
): Promise<AuthenticatedClient> {
  const { credentials, method } = detectCredentials(methods, request, params);
  checkClientIdAgrees(credentials, params);
  const client = await loadClient(ctx, tenant, credentials.clientId);
  checkMethodRegistered(client, method);
  await method.verify(ctx, tenant, client, credentials, request, params);
  return { client, method: method.name, confidential: method.confidential };
}
