/**
 * POST /oauth/revoke (RFC 7009; authentication-api-wire-notes §7) as a
 * pipeline of named steps: read the parameters (JSON or form), authenticate
 * the client as the token endpoint does (public clients with client_id
 * alone), require `token`, revoke, answer 200 with an empty body.
 *
 * Revoking a refresh token revokes its whole family (the tokens rotation
 * derived from the same grant), so a rotated-away ancestor cannot be used
 * to revoke less than the grant. An unknown token, an access token (a JWT,
 * not revocable here) and a token of another client all get the same 200
 * without effect: RFC 7009 §2.2 answers 200 for invalid tokens, and
 * answering the other client's token differently would tell a client which
 * tokens exist. `token_type_hint` is accepted and ignored (§2.1 allows it).
 */
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { Tenant } from '../domain/tenants/tenant.js';
import { authenticateClient, clientAuthenticationParameters, type ClientAuthenticationContext } from './client-auth/authenticate.js';
import type { AuthenticatedClient } from './client-auth/method.js';
import type { AuthenticationRegistries } from './registries.js';
import { pick, readBody, requireParams, type Params } from './params.js';
import { secretHash } from '../domain/secrets.js';
import { isoAt } from '../platform/clock.js';
import type { RefreshTokenStore } from '../domain/refresh-tokens/store.js';

/** What revocation touches. */
export interface RevocationContext extends ClientAuthenticationContext {
  readonly now: () => number;
  readonly stores: ClientAuthenticationContext['stores'] & { readonly refreshTokens: RefreshTokenStore };
}

async function revokeRefreshToken(ctx: RevocationContext, tenant: Tenant, client: AuthenticatedClient, params: Params): Promise<void> {
  const store = ctx.stores.refreshTokens;
  const row = await store.find(tenant.id, secretHash(params.token!));
  if (!row || row.client_id !== client.client.row.client_id) return;
  await store.revokeFamily(tenant.id, row.family_id, isoAt(ctx.now()));
}

export function revokeEndpoint(ctx: RevocationContext, registries: AuthenticationRegistries): RouteOptions {
  const parameters = [...clientAuthenticationParameters(registries.clientAuthMethods), 'token', 'token_type_hint'];
  return {
    method: 'POST',
    url: '/oauth/revoke',
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      const params = pick(readBody(request), parameters);
      const client = await authenticateClient(registries.clientAuthMethods, ctx, request.tenant, request, params);
      requireParams(params, 'token');
      await revokeRefreshToken(ctx, request.tenant, client, params);
      // An empty body with `application/json`, as the service answers; a Buffer keeps Fastify from adding a charset.
      return reply.code(200).header('Cache-Control', 'no-store').header('Content-Type', 'application/json').send(Buffer.alloc(0));
    },
  };
}
