/**
 * A client-authentication method of the token-style endpoints (RFC 6749
 * §2.3; OIDC Core §9; the service's list in its Authentication API
 * overview): one module per method, each of which both recognises its
 * credentials in a request (`detect`) and checks them against the client
 * (`verify`). The registry (../registries.ts) lists them; discovery
 * advertises the ones with `advertised`.
 */
import type { FastifyRequest } from 'fastify';
import type { IssuanceClient } from '../../domain/issuance/lookups.js';
import type { OneTimeUseStore } from '../../domain/one-time-use/store.js';
import type { Tenant } from '../../domain/tenants/tenant.js';
import type { Params } from '../params.js';

/** Credentials a method found in a request. */
export interface PresentedCredentials {
  method: string;
  clientId: string;
  /** The client secret, for the secret methods. */
  secret?: string;
  /** The client assertion (JWT), for private_key_jwt. */
  assertion?: string;
}

/**
 * What a method's `verify` may touch: the clock (credentials' validity) and
 * the one-time-use store (an assertion's `jti` is spent once). A method that
 * needs more adds it here, where every caller sees it.
 */
export interface ClientAuthContext {
  readonly now: () => number;
  readonly stores: { readonly oneTimeUses: OneTimeUseStore };
}

export interface ClientAuthMethod {
  /** The method's name as `token_endpoint_auth_method` and discovery spell it. */
  readonly name: string;
  /** Body parameters the method reads (beyond `client_id`, which every method may). */
  readonly parameters: readonly string[];
  /** Whether a client that used it proved possession of a credential (every method but `none`). */
  readonly confidential: boolean;
  /** Whether discovery lists it in `token_endpoint_auth_methods_supported` (the service does not list `none`). */
  readonly advertised: boolean;
  /** The JWS algorithms of its assertions (`token_endpoint_auth_signing_alg_values_supported`), for methods that sign. */
  readonly signingAlgs?: readonly string[];
  /** The method's credentials in the request, if it carries them; a malformed one is an error. */
  detect(request: FastifyRequest, params: Params): PresentedCredentials | undefined;
  /** Checks the credentials against the client; throws the OAuth error of a failed authentication. */
  verify(ctx: ClientAuthContext, tenant: Tenant, client: IssuanceClient, credentials: PresentedCredentials, request: FastifyRequest, params: Params): Promise<void>;
}

/** A client the request authenticated as, and how. */
export interface AuthenticatedClient {
  client: IssuanceClient;
  method: string;
  /** True when the client proved possession of a credential (not `none`). */
  confidential: boolean;
}
