import { BODY_CONTENT_TYPES, formListAsArray, type ManagementRouteFactory } from '../../route.js';
import { AssignUserRolesBody, type UserRolesBody } from '../../rbac/schema.js';
import type { RbacService } from '../../rbac/service.js';
import { userIdParams, type UserIdParams } from '../schema.js';

const Params = userIdParams('ID of the user to associate roles with');

/** POST /api/v2/users/{id}/roles → 204 (recorded: go-auth0 TestUserManager_Roles); every listed role must exist, all or none. */
export const assignUserRoles: ManagementRouteFactory<RbacService> = (_ctx, rbac) => ({
  method: 'POST',
  url: '/users/:id/roles',
  config: { scopes: ['update:users', 'create:role_members'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], params: Params, body: AssignUserRolesBody },
  preValidation: formListAsArray('roles'),
  handler: async (request, reply) => {
    await rbac.assignUserRoles(request.tenant, (request.params as UserIdParams).id, (request.body as UserRolesBody).roles);
    return reply.code(204).send();
  },
});
