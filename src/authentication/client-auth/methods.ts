/**
 * Client authentication at the token endpoint. Each method is a handler
 * behind one interface: it recognises its credentials in a request and checks
 * them against the client. The service accepts a confidential client's secret
 * in either place (Basic header or body) whatever its configured
 * `token_endpoint_auth_method`; clients registered for `private_key_jwt` or
 * mTLS (`client_authentication_methods`) may not use a secret at all.
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { IssuanceClient } from '../../domain/issuance/lookups.js';
import { oauthErrors } from '../../platform/http/errors.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import type { Params } from '../params.js';
import type { AppContext } from '../../domain/context.js';

export type ClientAuthMethodName = 'client_secret_basic' | 'client_secret_post' | 'none';

export interface PresentedCredentials {
  method: ClientAuthMethodName;
  clientId: string;
  secret?: string;
}

export interface ClientAuthMethod {
  name: ClientAuthMethodName;
  /** The credentials of this method in the request, if it carries them. */
  detect(request: FastifyRequest, params: Params): PresentedCredentials | undefined;
}

function decodeFormComponent(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return value;
  }
}

/** RFC 6749 §2.3.1: `Authorization: Basic base64(urlencode(id):urlencode(secret))`. */
export const clientSecretBasic: ClientAuthMethod = {
  name: 'client_secret_basic',
  detect(request) {
    const header = request.headers.authorization;
    const match = header ? /^basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header) : null;
    if (!header || !/^basic\b/i.test(header)) return undefined;
    const decoded = match ? Buffer.from(match[1]!, 'base64').toString('utf8') : '';
    const colon = decoded.indexOf(':');
    if (colon <= 0) throw oauthErrors.invalidRequest('Malformed HTTP Basic authorization header');
    return {
      method: 'client_secret_basic',
      clientId: decodeFormComponent(decoded.slice(0, colon)),
      secret: decodeFormComponent(decoded.slice(colon + 1)),
    };
  },
};

export const clientSecretPost: ClientAuthMethod = {
  name: 'client_secret_post',
  detect(_request, params) {
    if (params.client_secret === undefined) return undefined;
    if (!params.client_id) throw oauthErrors.invalidRequest('Missing required parameter: client_id');
    return { method: 'client_secret_post', clientId: params.client_id, secret: params.client_secret };
  },
};

/** Public clients: `client_id` alone. */
export const none: ClientAuthMethod = {
  name: 'none',
  detect(_request, params) {
    return params.client_id ? { method: 'none', clientId: params.client_id } : undefined;
  },
};

/** In order of precedence: explicit credentials first, `client_id` alone last. */
export const CLIENT_AUTH_METHODS: readonly ClientAuthMethod[] = [clientSecretBasic, clientSecretPost, none];

export interface AuthenticatedClient {
  client: IssuanceClient;
  method: ClientAuthMethodName;
  /** True when the client proved possession of a credential (not `none`). */
  confidential: boolean;
}

/** Constant-time comparison that does not leak the secret's length through an early exit. */
function secretsEqual(presented: string, stored: string): boolean {
  const a = Buffer.from(presented, 'utf8');
  const b = Buffer.from(stored, 'utf8');
  const length = Math.max(a.length, b.length);
  const pa = Buffer.alloc(length);
  const pb = Buffer.alloc(length);
  a.copy(pa);
  b.copy(pb);
  return timingSafeEqual(pa, pb) && a.length === b.length;
}

/**
 * Identifies and authenticates the client of a token request.
 * Errors: a wrong, missing or unusable secret is 401 `access_denied`
 * `Unauthorized`, as the service answers; a client registered for
 * private_key_jwt or mTLS that sends a secret is 401 `invalid_client`.
 */
export async function authenticateClient(
  ctx: AppContext,
  tenant: Tenant,
  request: FastifyRequest,
  params: Params,
): Promise<AuthenticatedClient> {
  if (params.client_assertion !== undefined || params.client_assertion_type !== undefined) {
    throw oauthErrors.invalidClient('Client assertions (private_key_jwt) are not accepted by this server yet');
  }
  const presented = CLIENT_AUTH_METHODS.map((m) => m.detect(request, params)).filter((p) => p !== undefined);
  const credentials = presented[0];
  if (!credentials) throw oauthErrors.invalidRequest('Missing required parameter: client_id');
  if (presented.length > 1 && presented[1]!.method !== 'none') {
    throw oauthErrors.invalidRequest('Only one client authentication method may be used per request');
  }
  if (params.client_id !== undefined && params.client_id !== credentials.clientId) {
    throw oauthErrors.invalidRequest('client_id does not match the client of the Authorization header');
  }

  const client = await ctx.lookups.client(tenant.id, credentials.clientId);
  if (!client) throw oauthErrors.clientUnauthorized();

  const strong = client.authenticationMethods.filter((m) => ['private_key_jwt', 'tls_client_auth', 'self_signed_tls_client_auth'].includes(m));
  if (strong.length) {
    throw oauthErrors.invalidClient(
      `This client must authenticate with ${strong.join(' or ')}; ${credentials.method} is not allowed for it`,
    );
  }

  if (client.row.token_endpoint_auth_method === 'none') {
    // A public client has no secret: anything but client_id alone is a failed authentication.
    if (credentials.method !== 'none') throw oauthErrors.clientUnauthorized();
    return { client, method: 'none', confidential: false };
  }

  if (credentials.secret === undefined || client.secret === undefined) throw oauthErrors.clientUnauthorized();
  if (!secretsEqual(credentials.secret, client.secret)) throw oauthErrors.clientUnauthorized();
  return { client, method: credentials.method, confidential: true };
}
