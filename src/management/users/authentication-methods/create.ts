import type { GuardianMfaService } from '../../guardian/mfa-service.js';
import { CreateAuthenticationMethodBody, CreatedAuthenticationMethod } from '../../guardian/mfa-schema.js';
import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../../route.js';
import { userIdParams } from '../schema.js';

/**
 * POST /api/v2/users/{id}/authentication-methods → 201: a `totp` (with its
 * secret), `email` or `phone` method, confirmed at once. 409 for a second
 * method with the same address; other types are 400 `operation_not_supported`.
 */
export const createAuthenticationMethod: ManagementRouteFactory<GuardianMfaService> = (_ctx, mfa) => managementRoute({
  method: 'POST',
  url: '/users/:id/authentication-methods',
  config: { scopes: ['create:authentication_methods'] },
  schema: {
    params: userIdParams('The ID of the user to whom the new authentication method will be assigned'),
    consumes: [...BODY_CONTENT_TYPES],
    body: CreateAuthenticationMethodBody,
    response: { 201: CreatedAuthenticationMethod },
  },
  handler: async (request, reply) => reply.code(201).send(await mfa.createAuthenticationMethod(request.tenant, request.params.id, request.body)),
});
