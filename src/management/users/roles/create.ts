import { BODY_CONTENT_TYPES, formListAsArray, managementRoute, NoContent, type ManagementRouteFactory } from '../../route.js';
import { AssignUserRolesBody } from '../../rbac/schema.js';
import type { UserAccessService } from '../../rbac/user-access.js';
import { userIdParams } from '../schema.js';

const Params = userIdParams('ID of the user to associate roles with');

/** POST /api/v2/users/{id}/roles → 204 (recorded: go-auth0 TestUserManager_Roles); every listed role must exist, all or none. */
export const assignUserRoles: ManagementRouteFactory<UserAccessService> = (_ctx, rbac) => managementRoute({
  method: 'POST',
  url: '/users/:id/roles',
  config: { scopes: ['update:users', 'create:role_members'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], params: Params, body: AssignUserRolesBody, response: { 204: NoContent } },
  preValidation: formListAsArray('roles'),
  handler: async (request, reply) => {
    await rbac.assignUserRoles(request.tenant, request.params.id, request.body.roles);
    return reply.code(204).send();
  },
});
