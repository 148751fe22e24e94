import { BODY_CONTENT_TYPES, formListAsArray, managementRoute, NoContent, type ManagementRouteFactory } from '../../route.js';
import { AddGroupMembersBody } from '../../rbac/schema.js';
import type { GroupMemberService } from '../../rbac/group-members.js';
import { GroupIdParams } from '../schema.js';

/**
 * POST /api/v2/groups/{id}/members → 204. A Gatehouse extension, as POST
 * /groups is: the service fills groups from directory connections and
 * organizations only. Body `{members: [user id, …]}` (1 to 100); every user
 * must exist, all are added or none; members already in the group stay.
 * Scope `create:group_members`, Gatehouse's own.
 */
export const addGroupMembers: ManagementRouteFactory<GroupMemberService> = (_ctx, rbac) => managementRoute({
  method: 'POST',
  url: '/groups/:id/members',
  config: { scopes: ['create:group_members'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], params: GroupIdParams, body: AddGroupMembersBody, response: { 204: NoContent } },
  preValidation: formListAsArray('members'),
  handler: async (request, reply) => {
    await rbac.addGroupMembers(request.tenant, request.params.id, request.body.members);
    return reply.code(204).send();
  },
});
