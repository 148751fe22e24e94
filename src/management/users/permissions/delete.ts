import { BODY_CONTENT_TYPES, type ManagementRouteFactory } from '../../route.js';
import { DeleteUserPermissionsBody, type PermissionsBody } from '../../rbac/schema.js';
import type { RbacService } from '../../rbac/service.js';
import { userIdParams, type UserIdParams } from '../schema.js';

const Params = userIdParams('ID of the user to remove permissions from');

/** DELETE /api/v2/users/{id}/permissions → 204 (recorded); permissions the user does not have directly are skipped. */
export const deleteUserPermissions: ManagementRouteFactory<RbacService> = (_ctx, rbac) => ({
  method: 'DELETE',
  url: '/users/:id/permissions',
  config: { scopes: ['update:users'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], params: Params, body: DeleteUserPermissionsBody },
  handler: async (request, reply) => {
    await rbac.removeUserPermissions(request.tenant, (request.params as UserIdParams).id, (request.body as PermissionsBody).permissions);
    return reply.code(204).send();
  },
});
