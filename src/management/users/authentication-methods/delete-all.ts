import type { GuardianMfaService } from '../../guardian/mfa-service.js';
import { managementRoute, NoContent, type ManagementRouteFactory } from '../../route.js';
import { userIdParams } from '../schema.js';

/** DELETE /api/v2/users/{id}/authentication-methods → 204: every MFA enrolment of the user, the recovery code included. */
export const deleteAuthenticationMethods: ManagementRouteFactory<GuardianMfaService> = (_ctx, mfa) => managementRoute({
  method: 'DELETE',
  url: '/users/:id/authentication-methods',
  config: { scopes: ['delete:authentication_methods'] },
  schema: { params: userIdParams('The ID of the user in question'), response: { 204: NoContent } },
  handler: async (request, reply) => {
    await mfa.deleteAuthenticationMethods(request.tenant, request.params.id);
    return reply.code(204).send();
  },
});
