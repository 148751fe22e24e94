import { BODY_CONTENT_TYPES, formListAsArray, managementRoute, NoContent, type ManagementRouteFactory } from '../../route.js';
import { DeleteRoleGroupsBody } from '../../rbac/schema.js';
import type { RoleAccessService } from '../../rbac/role-access.js';
import { roleIdParams } from '../schema.js';

const Params = roleIdParams('Unique identifier for the role (service-generated)');

/** DELETE /api/v2/roles/{id}/groups → 204; groups the role is not assigned to are skipped. */
export const deleteRoleGroups: ManagementRouteFactory<RoleAccessService> = (_ctx, rbac) => managementRoute({
  method: 'DELETE',
  url: '/roles/:id/groups',
  config: { scopes: ['delete:group_roles'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], params: Params, body: DeleteRoleGroupsBody, response: { 204: NoContent } },
  preValidation: formListAsArray('groups'),
  handler: async (request, reply) => {
    await rbac.removeRoleGroups(request.tenant, request.params.id, request.body.groups);
    return reply.code(204).send();
  },
});
