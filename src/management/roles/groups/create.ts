import { BODY_CONTENT_TYPES, formListAsArray, managementRoute, NoContent, type ManagementRouteFactory } from '../../route.js';
import { AssignRoleGroupsBody } from '../../rbac/schema.js';
import type { RoleAccessService } from '../../rbac/role-access.js';
import { roleIdParams } from '../schema.js';

const Params = roleIdParams('Unique identifier for the role (service-generated)');

/** POST /api/v2/roles/{id}/groups → 204; every listed group must exist, all are assigned or none. */
export const assignRoleGroups: ManagementRouteFactory<RoleAccessService> = (_ctx, rbac) => managementRoute({
  method: 'POST',
  url: '/roles/:id/groups',
  config: { scopes: ['create:group_roles'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], params: Params, body: AssignRoleGroupsBody, response: { 204: NoContent } },
  preValidation: formListAsArray('groups'),
  handler: async (request, reply) => {
    await rbac.assignRoleGroups(request.tenant, request.params.id, request.body.groups);
    return reply.code(204).send();
  },
});
