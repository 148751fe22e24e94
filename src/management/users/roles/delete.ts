import { BODY_CONTENT_TYPES, formListAsArray, managementRoute, NoContent, type ManagementRouteFactory } from '../../route.js';
import { DeleteUserRolesBody } from '../../rbac/schema.js';
import type { UserAccessService } from '../../rbac/user-access.js';
import { userIdParams } from '../schema.js';

const Params = userIdParams('ID of the user to remove roles from');

/** DELETE /api/v2/users/{id}/roles → 204 (recorded); roles the user does not have are skipped. */
export const deleteUserRoles: ManagementRouteFactory<UserAccessService> = (_ctx, rbac) => managementRoute({
  method: 'DELETE',
  url: '/users/:id/roles',
  config: { scopes: ['update:users', 'delete:role_members'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], params: Params, body: DeleteUserRolesBody, response: { 204: NoContent } },
  preValidation: formListAsArray('roles'),
  handler: async (request, reply) => {
    await rbac.removeUserRoles(request.tenant, request.params.id, request.body.roles);
    return reply.code(204).send();
  },
});
