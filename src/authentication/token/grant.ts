import type { FastifyRequest } from 'fastify';
import type { Tenant } from '../../domain/tenants/tenant.js';
import type { AuthenticatedClient } from '../client-auth/methods.js';
import type { Params } from '../params.js';
import type { AppContext } from '../../domain/context.js';

/** The token endpoint's success body (RFC 6749 §5.1), members in the service's order. */
export interface TokenResponse {
  access_token: string;
  refresh_token?: string;
  id_token?: string;
  scope?: string;
  expires_in: number;
  token_type: 'Bearer';
}

export interface GrantContext {
  ctx: AppContext;
  tenant: Tenant;
  request: FastifyRequest;
  params: Params;
  client: AuthenticatedClient;
}

/** One grant type of POST /oauth/token. */
export interface GrantHandler {
  grantType: string;
  /** Whether the client must have authenticated with a credential (not client_id alone). */
  requiresConfidentialClient: boolean;
  handle(grant: GrantContext): Promise<TokenResponse>;
}
