import { BODY_CONTENT_TYPES, formListAsArray, type ManagementRouteFactory } from '../../route.js';
import { DeleteRoleGroupsBody, type RoleGroupsBody } from '../../rbac/schema.js';
import type { RbacService } from '../../rbac/service.js';
import { roleIdParams, type RoleIdParams } from '../schema.js';

const Params = roleIdParams('Unique identifier for the role (service-generated)');

/** DELETE /api/v2/roles/{id}/groups → 204; groups the role is not assigned to are skipped. */
export const deleteRoleGroups: ManagementRouteFactory<RbacService> = (_ctx, rbac) => ({
  method: 'DELETE',
  url: '/roles/:id/groups',
  config: { scopes: ['delete:group_roles'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], params: Params, body: DeleteRoleGroupsBody },
  preValidation: formListAsArray('groups'),
  handler: async (request, reply) => {
    await rbac.removeRoleGroups(request.tenant, (request.params as RoleIdParams).id, (request.body as RoleGroupsBody).groups);
    return reply.code(204).send();
  },
});
