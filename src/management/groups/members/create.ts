import { BODY_CONTENT_TYPES, formListAsArray, type ManagementRouteFactory } from '../../route.js';
import { AddGroupMembersBody, type GroupMembersBody } from '../../rbac/schema.js';
import type { RbacService } from '../../rbac/service.js';
import { GroupIdParams } from '../schema.js';

/**
 * POST /api/v2/groups/{id}/members → 204. A Gatehouse extension, as POST
 * /groups is: the service fills groups from directory connections and
 * organizations only. Body `{members: [user id, …]}` (1 to 100); every user
 * must exist, all are added or none; members already in the group stay.
 * Scope `create:group_members`, Gatehouse's own.
 */
export const addGroupMembers: ManagementRouteFactory<RbacService> = (_ctx, rbac) => ({
  method: 'POST',
  url: '/groups/:id/members',
  config: { scopes: ['create:group_members'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], params: GroupIdParams, body: AddGroupMembersBody },
  preValidation: formListAsArray('members'),
  handler: async (request, reply) => {
    await rbac.addGroupMembers(request.tenant, (request.params as GroupIdParams).id, (request.body as GroupMembersBody).members);
    return reply.code(204).send();
  },
});
