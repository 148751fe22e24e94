import { BODY_CONTENT_TYPES, managementRoute, NoContent, type ManagementRouteFactory } from '../../route.js';
import { GroupIdParams } from '../schema.js';
import type { GroupService } from '../service.js';
import { DeleteGroupRolesBody, formRolesAsArray } from './schema.js';

/**
 * DELETE /api/v2/groups/{id}/roles → 204 (spec, operation 2). The path id is
 * 18 to 26 characters and the body `{roles: [role id, …]}` with at least one
 * item, JSON or form; checks run in that order (path, then body), then the
 * group must exist (404 "Group not found."). Removal is atomic and idempotent
 * (see GroupService.removeRoles).
 */
export const deleteGroupRoles: ManagementRouteFactory<GroupService> = (_ctx, groups) => managementRoute({
  method: 'DELETE',
  url: '/groups/:id/roles',
  config: { scopes: ['delete:group_roles'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], params: GroupIdParams, body: DeleteGroupRolesBody, response: { 204: NoContent } },
  preValidation: formRolesAsArray,
  handler: async (request, reply) => {
    const { id } = request.params;
    await groups.removeRoles(request.tenant, id, request.body.roles);
    return reply.code(204).send();
  },
});
