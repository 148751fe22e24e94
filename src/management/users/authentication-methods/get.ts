import type { GuardianMfaService } from '../../guardian/mfa-service.js';
import { AuthenticationMethodParams, UserAuthenticationMethod } from '../../guardian/mfa-schema.js';
import { managementRoute, type ManagementRouteFactory } from '../../route.js';

/** GET /api/v2/users/{id}/authentication-methods/{authentication_method_id} → 200; 404 when the user has no such method. */
export const getAuthenticationMethod: ManagementRouteFactory<GuardianMfaService> = (_ctx, mfa) => managementRoute({
  method: 'GET',
  url: '/users/:id/authentication-methods/:authentication_method_id',
  config: { scopes: ['read:authentication_methods'] },
  schema: { params: AuthenticationMethodParams, response: { 200: UserAuthenticationMethod } },
  handler: async (request) => mfa.authenticationMethod(request.tenant, request.params.id, request.params.authentication_method_id),
});
