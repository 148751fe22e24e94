/**
 * POST /oauth/par (RFC 9126; authentication-api-wire-notes §12): the client
 * authenticates as at the token endpoint (any registered method; a public
 * client by client_id), pushes the parameters of an /authorize request, and
 * gets a single-use `request_uri` valid for the client's
 * `par_request_expiry` seconds (default 30, at most 600). The request is
 * validated now, as /authorize would, and refused as JSON: `redirect_uri`
 * against the callbacks, the response type, mode, scope and PKCE. A
 * `request_uri` cannot itself be pushed (§2.1); a signed request object
 * (`request`, RFC 9101) is verified here and its members pushed. A DPoP proof binds the
 * request's code to its key (`dpop_jkt`, RFC 9449 §10.1).
 */
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { AppContext } from '../domain/context.js';
import { newSecret, secretHash } from '../domain/secrets.js';
import { isoAt } from '../platform/clock.js';
import { OAuthError, oauthErrors } from '../platform/http/errors.js';
import { checkWebMessageOrigin, resolveRedirectTarget, validateAuthorizeRequest } from './authorize/request.js';
import { REQUEST_URI_PREFIX } from './authorize/pushed.js';
import { RequestObjectRefusal, withRequestObject } from './authorize/request-object.js';
import { authenticateClient, clientAuthenticationParameters } from './client-auth/authenticate.js';
import { proofOfPossession } from './sender-constraint/token-proof.js';
import { AuthorizationErrorResponse } from './errors.js';
import { readBody } from './params.js';
import type { AuthenticationRegistries } from './registries.js';

export const DEFAULT_PAR_EXPIRY_SECONDS = 30;
export const MAX_PAR_EXPIRY_SECONDS = 600;

/** The client's `par_request_expiry`, or the default. */
function expirySeconds(config: Record<string, unknown>): number {
  const value = config.par_request_expiry;
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? Math.min(value, MAX_PAR_EXPIRY_SECONDS) : DEFAULT_PAR_EXPIRY_SECONDS;
}

export function parEndpoint(ctx: AppContext, registries: AuthenticationRegistries): RouteOptions {
  const authentication = new Set(clientAuthenticationParameters(registries.clientAuthMethods));
  return {
    method: 'POST',
    url: '/oauth/par',
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      const raw = readBody(request);
      const refused = [...raw.repeated, ...raw.malformed][0];
      if (refused !== undefined) throw oauthErrors.invalidRequest(`Parameter ${refused} must not be repeated.`);
      const client = await authenticateClient(registries.clientAuthMethods, ctx, request.tenant, request, raw.values);
      let params: Record<string, string> = {};
      for (const [name, value] of Object.entries(raw.values)) if (!authentication.has(name) || name === 'client_id') params[name] = value;
      if (params.request_uri !== undefined) throw oauthErrors.invalidRequest('request_uri cannot be pushed.');
      params.client_id = client.client.row.client_id;
      try {
        params = await withRequestObject(ctx, request.tenant, client.client, params);
      } catch (error) {
        if (error instanceof RequestObjectRefusal) throw new OAuthError(400, 'invalid_request_object', error.description);
        throw error;
      }
      // A DPoP proof binds the code to its key (RFC 9449 §10.1); a dpop_jkt sent beside it must name the same key.
      const confirmation = await proofOfPossession(ctx, request.tenant, request, reply, client.client, `${request.tenant.issuer}oauth/par`, {
        // The tokens are constrained at the token endpoint; pushing without a proof leaves the code unbound.
        enforceClientRequirement: false,
      });
      if (confirmation?.jkt !== undefined) {
        if (params.dpop_jkt !== undefined && params.dpop_jkt !== confirmation.jkt) throw new OAuthError(400, 'invalid_dpop_proof', 'dpop_jkt does not match the DPoP proof');
        params.dpop_jkt = confirmation.jkt;
      }

      const target = resolveRedirectTarget(client.client, params.redirect_uri, oauthErrors.invalidRequest);
      checkWebMessageOrigin(client.client, params, target, oauthErrors.invalidRequest);
      try {
        validateAuthorizeRequest(client.client, params, target);
      } catch (error) {
        if (error instanceof AuthorizationErrorResponse) throw new OAuthError(400, error.error, error.description);
        throw error;
      }

      const secret = newSecret();
      const expiresIn = expirySeconds(client.client.row.config);
      const now = ctx.now();
      await ctx.stores.pushedRequests.insert({
        tenant_id: request.tenant.id,
        id_hash: secretHash(secret),
        client_id: client.client.row.client_id,
        params,
        created_at: isoAt(now),
        expires_at: isoAt(now + expiresIn * 1000),
      });
      return reply
        .code(201)
        .header('Cache-Control', 'no-store')
        .send({ request_uri: `${REQUEST_URI_PREFIX}${secret}`, expires_in: expiresIn });
    },
  };
}
