import type { GuardianMfaService } from '../../guardian/mfa-service.js';
import { CreatedAuthenticationMethod, SetAuthenticationMethodsBody } from '../../guardian/mfa-schema.js';
import { Type } from '@sinclair/typebox';
import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../../route.js';
import { userIdParams } from '../schema.js';

/**
 * PUT /api/v2/users/{id}/authentication-methods → 200 with the new methods:
 * the user's phone, email and totp methods replaced by the body's (its
 * other methods stay; ../../guardian/mfa-service.ts `setAuthenticationMethods`).
 */
export const setAuthenticationMethods: ManagementRouteFactory<GuardianMfaService> = (_ctx, mfa) => managementRoute({
  method: 'PUT',
  url: '/users/:id/authentication-methods',
  config: { scopes: ['update:authentication_methods'] },
  schema: {
    params: userIdParams('The ID of the user in question.'),
    consumes: [...BODY_CONTENT_TYPES],
    body: SetAuthenticationMethodsBody,
    response: { 200: Type.Array(CreatedAuthenticationMethod) },
  },
  handler: async (request) => mfa.setAuthenticationMethods(request.tenant, request.params.id, request.body),
});
