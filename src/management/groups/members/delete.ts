import { BODY_CONTENT_TYPES, formListAsArray, managementRoute, NoContent, type ManagementRouteFactory } from '../../route.js';
import { RemoveGroupMembersBody } from '../../rbac/schema.js';
import type { GroupMemberService } from '../../rbac/group-members.js';
import { GroupIdParams } from '../schema.js';

/**
 * DELETE /api/v2/groups/{id}/members → 204. A Gatehouse extension (see POST):
 * body `{members: [user id, …]}` (1 to 100); users who are not members are
 * skipped. Scope `delete:group_members`, Gatehouse's own.
 */
export const removeGroupMembers: ManagementRouteFactory<GroupMemberService> = (_ctx, rbac) => managementRoute({
  method: 'DELETE',
  url: '/groups/:id/members',
  config: { scopes: ['delete:group_members'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], params: GroupIdParams, body: RemoveGroupMembersBody, response: { 204: NoContent } },
  preValidation: formListAsArray('members'),
  handler: async (request, reply) => {
    await rbac.removeGroupMembers(request.tenant, request.params.id, request.body.members);
    return reply.code(204).send();
  },
});
