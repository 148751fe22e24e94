import { BODY_CONTENT_TYPES, managementRoute, NoContent, type ManagementRouteFactory } from '../../route.js';
import { DeleteUserPermissionsBody } from '../../rbac/schema.js';
import type { UserAccessService } from '../../rbac/user-access.js';
import { userIdParams } from '../schema.js';

const Params = userIdParams('ID of the user to remove permissions from');

/** DELETE /api/v2/users/{id}/permissions → 204 (recorded); permissions the user does not have directly are skipped. */
export const deleteUserPermissions: ManagementRouteFactory<UserAccessService> = (_ctx, rbac) => managementRoute({
  method: 'DELETE',
  url: '/users/:id/permissions',
  config: { scopes: ['update:users'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], params: Params, body: DeleteUserPermissionsBody, response: { 204: NoContent } },
  handler: async (request, reply) => {
    await rbac.removeUserPermissions(request.tenant, request.params.id, request.body.permissions);
    return reply.code(204).send();
  },
});
