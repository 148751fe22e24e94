import type { GuardianMfaService } from '../../guardian/mfa-service.js';
import { AuthenticationMethodParams } from '../../guardian/mfa-schema.js';
import { managementRoute, NoContent, type ManagementRouteFactory } from '../../route.js';

/** DELETE /api/v2/users/{id}/authentication-methods/{authentication_method_id} → 204; 404 when the user has no such method. */
export const deleteAuthenticationMethod: ManagementRouteFactory<GuardianMfaService> = (_ctx, mfa) => managementRoute({
  method: 'DELETE',
  url: '/users/:id/authentication-methods/:authentication_method_id',
  config: { scopes: ['delete:authentication_methods'] },
  schema: { params: AuthenticationMethodParams, response: { 204: NoContent } },
  handler: async (request, reply) => {
    await mfa.deleteAuthenticationMethod(request.tenant, request.params.id, request.params.authentication_method_id);
    return reply.code(204).send();
  },
});
