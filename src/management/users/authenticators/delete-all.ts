import type { GuardianMfaService } from '../../guardian/mfa-service.js';
import { managementRoute, NoContent, type ManagementRouteFactory } from '../../route.js';
import { userIdParams } from '../schema.js';

/**
 * DELETE /api/v2/users/{id}/authenticators → 204: every authenticator of the
 * user (OTP, email, phone, push, security keys, device biometrics, the
 * recovery code), as DELETE …/authentication-methods does; the service's
 * document asks `delete:guardian_enrollments` here.
 */
export const deleteAuthenticators: ManagementRouteFactory<GuardianMfaService> = (_ctx, mfa) => managementRoute({
  method: 'DELETE',
  url: '/users/:id/authenticators',
  config: { scopes: ['delete:guardian_enrollments'] },
  schema: { params: userIdParams('ID of the user to delete.'), response: { 204: NoContent } },
  handler: async (request, reply) => {
    await mfa.deleteAuthenticationMethods(request.tenant, request.params.id);
    return reply.code(204).send();
  },
});
