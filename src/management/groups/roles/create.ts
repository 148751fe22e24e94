import { BODY_CONTENT_TYPES, managementRoute, NoContent, type ManagementRouteFactory } from '../../route.js';
import { GroupIdParams } from '../schema.js';
import type { GroupService } from '../service.js';
import { AssignGroupRolesBody, formRolesAsArray } from './schema.js';

/** POST /api/v2/groups/{id}/roles → 204; all listed roles or none (see GroupService.assignRoles). */
export const assignGroupRoles: ManagementRouteFactory<GroupService> = (_ctx, groups) => managementRoute({
  method: 'POST',
  url: '/groups/:id/roles',
  config: { scopes: ['create:group_roles'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], params: GroupIdParams, body: AssignGroupRolesBody, response: { 204: NoContent } },
  preValidation: formRolesAsArray,
  handler: async (request, reply) => {
    const { id } = request.params;
    await groups.assignRoles(request.tenant, id, request.body.roles);
    return reply.code(204).send();
  },
});
