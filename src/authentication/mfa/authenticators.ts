/**
 * GET /mfa/authenticators and DELETE /mfa/authenticators/{id} (wire notes
 * §13): the caller's enrolments, in the service's shape
 * (`{id, authenticator_type, active, oob_channel?, name?}`, email and phone
 * masked), and removing one (needs `remove:authenticators`: an access token
 * for the MFA API, never the mfa_token alone). An id that is not one of the
 * caller's is 404 `not_found`, whoever's it is.
 */
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { authenticatorApiId, maskedEmail, maskedPhone, storedIdOf, type Authenticator } from '../../domain/mfa/model.js';
import { usableAuthenticators, type MfaContext } from '../../domain/mfa/service.js';
import { oauthErrors } from '../../platform/http/errors.js';
import { mfaCaller, requireScope, type MfaCallerContext } from './caller.js';
import type { MfaStore } from '../../domain/mfa/store.js';

function listed(a: Authenticator): Record<string, unknown> {
  const id = authenticatorApiId(a);
  const active = a.confirmed === 1;
  switch (a.type) {
    case 'totp':
      return { id, authenticator_type: 'otp', active };
    case 'recovery-code':
      return { id, authenticator_type: 'recovery-code', active };
    case 'email':
      return { id, authenticator_type: 'oob', active, oob_channel: 'email', name: maskedEmail(a.email ?? '') };
    case 'phone':
      return { id, authenticator_type: 'oob', active, oob_channel: 'sms', name: maskedPhone(a.phone_number ?? '') };
    case 'push':
      return { id, authenticator_type: 'oob', active, oob_channel: 'auth0', ...(a.name !== null && { name: a.name }) };
  }
}

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
      return (await usableAuthenticators(ctx, request.tenant.id, caller.user.user_id)).map(listed);
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
