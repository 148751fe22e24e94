import { BODY_CONTENT_TYPES, managementRoute, NoContent, type ManagementRouteFactory } from '../../route.js';
import { RolePermissionsBody } from '../../rbac/schema.js';
import type { RoleAccessService } from '../../rbac/role-access.js';
import { roleIdParams } from '../schema.js';

const Params = roleIdParams('ID of the role to remove permissions from');

/**
 * DELETE /api/v2/roles/{id}/permissions → 204 with no body. The document says
 * 200, but the service answers 204 No Content (recorded: go-auth0
 * TestRoleManager_Permissions, terraform TestAccDataSourceRole); SDKs accept
 * either. Permissions the role does not have are skipped.
 */
export const deleteRolePermissions: ManagementRouteFactory<RoleAccessService> = (_ctx, rbac) => managementRoute({
  method: 'DELETE',
  url: '/roles/:id/permissions',
  config: { scopes: ['update:roles'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], params: Params, body: RolePermissionsBody, response: { 204: NoContent } },
  handler: async (request, reply) => {
    await rbac.removeRolePermissions(request.tenant, request.params.id, request.body.permissions);
    return reply.code(204).send();
  },
});
