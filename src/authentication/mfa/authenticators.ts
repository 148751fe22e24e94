/**
 * GET /mfa/authenticators and DELETE /mfa/authenticators/{id} (wire notes
 * §13): the caller's enrolments, in the service's shape
 * (`{id, authenticator_type, active, oob_channel?, name?}`, email and phone
 * masked), and removing one (needs `remove:authenticators`: an access token
 * for the MFA API, never the mfa_token alone). An id that is not one of the
 * caller's is 404 `not_found`, whoever's it is.
 */
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { storedIdOf } from '../../domain/mfa/model.js';
import { apiAuthenticator } from '../../domain/mfa/factors/registry.js';
import { usableAuthenticators, type MfaContext } from '../../domain/mfa/service.js';
import { oauthErrors } from '../../platform/http/errors.js';
import { mfaCaller, requireScope, type MfaCallerContext } from './caller.js';
import type { MfaStore } from '../../domain/mfa/store.js';

/** What the /mfa/authenticators API touches. */
export interface MfaAuthenticatorsContext extends MfaCallerContext, MfaContext {
  readonly stores: MfaCallerContext['stores'] & MfaContext['stores'] & { readonly mfa: MfaStore };
}

export function listAuthenticatorsEndpoint(ctx: MfaAuthenticatorsContext): RouteOptions {
  return {
    method: 'GET',
    url: '/mfa/authenticators',
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      const caller = await mfaCaller(ctx, request.tenant, request);
      requireScope(caller, 'read:authenticators');
      reply.header('Cache-Control', 'no-store');
      return (await usableAuthenticators(ctx, request.tenant.id, caller.user.user_id)).map(apiAuthenticator);
    },
  };
}

export function deleteAuthenticatorEndpoint(ctx: MfaAuthenticatorsContext): RouteOptions {
  return {
    method: 'DELETE',
    url: '/mfa/authenticators/:id',
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      const caller = await mfaCaller(ctx, request.tenant, request);
      requireScope(caller, 'remove:authenticators');
      const { id } = request.params as { id: string };
      if (!(await ctx.stores.mfa.deleteAuthenticator(request.tenant.id, caller.user.user_id, storedIdOf(id)))) {
        throw oauthErrors.notFound('Authenticator not found');
      }
      return reply.code(204).send();
    },
  };
}
