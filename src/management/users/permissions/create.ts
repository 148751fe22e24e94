import { Type } from '@sinclair/typebox';
import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../../route.js';
import { CreateUserPermissionsBody } from '../../rbac/schema.js';
import type { UserAccessService } from '../../rbac/user-access.js';
import { userIdParams } from '../schema.js';

const Params = userIdParams('ID of the user to assign permissions to');

/**
 * POST /api/v2/users/{id}/permissions → 201 `{}` (recorded: go-auth0
 * TestUserManager_Permissions). Every permission must name an API of the
 * tenant and one of its scopes; all are added or none.
 */
export const addUserPermissions: ManagementRouteFactory<UserAccessService> = (_ctx, rbac) => managementRoute({
  method: 'POST',
  url: '/users/:id/permissions',
  config: { scopes: ['update:users'] },
  schema: {
    consumes: [...BODY_CONTENT_TYPES],
    params: Params,
    body: CreateUserPermissionsBody,
    response: { 201: Type.Object({}, { additionalProperties: false }) },
  },
  handler: async (request, reply) => {
    await rbac.addUserPermissions(request.tenant, request.params.id, request.body.permissions);
    return reply.code(201).send({});
  },
});
