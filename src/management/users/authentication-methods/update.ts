import type { GuardianMfaService } from '../../guardian/mfa-service.js';
import { AuthenticationMethodParams, UpdateAuthenticationMethodBody, UserAuthenticationMethod } from '../../guardian/mfa-schema.js';
import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../../route.js';

/** PATCH /api/v2/users/{id}/authentication-methods/{authentication_method_id} → 200 with the method; 404 when the user has no such method. */
export const updateAuthenticationMethod: ManagementRouteFactory<GuardianMfaService> = (_ctx, mfa) => managementRoute({
  method: 'PATCH',
  url: '/users/:id/authentication-methods/:authentication_method_id',
  config: { scopes: ['update:authentication_methods'] },
  schema: { params: AuthenticationMethodParams, consumes: [...BODY_CONTENT_TYPES], body: UpdateAuthenticationMethodBody, response: { 200: UserAuthenticationMethod } },
  handler: async (request) => mfa.updateAuthenticationMethod(request.tenant, request.params.id, request.params.authentication_method_id, request.body),
});
