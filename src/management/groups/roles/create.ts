import { BODY_CONTENT_TYPES, type ManagementRouteFactory } from '../../route.js';
import { GroupIdParams } from '../schema.js';
import type { GroupService } from '../service.js';
import { AssignGroupRolesBody, formRolesAsArray, type GroupRolesBody } from './schema.js';

/** POST /api/v2/groups/{id}/roles → 204; all listed roles or none (see GroupService.assignRoles). */
export const assignGroupRoles: ManagementRouteFactory<GroupService> = (_ctx, groups) => ({
  method: 'POST',
  url: '/groups/:id/roles',
  config: { scopes: ['create:group_roles'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], params: GroupIdParams, body: AssignGroupRolesBody },
  preValidation: formRolesAsArray,
  handler: async (request, reply) => {
    const { id } = request.params as GroupIdParams;
    await groups.assignRoles(request.tenant, id, (request.body as GroupRolesBody).roles);
    return reply.code(204).send();
  },
});
