import { Type } from '@sinclair/typebox';
import { fieldSelection, FieldsQuery } from '../../fields.js';
import { CheckpointQuery, checkpointListResponse } from '../../lists.js';
import { GroupMemberResponse } from '../../rbac/schema.js';
import type { GroupMemberService } from '../../rbac/group-members.js';
import { managementRoute, type ManagementRouteFactory } from '../../route.js';
import { GroupIdParams } from '../schema.js';

const Query = Type.Object({ ...FieldsQuery, ...CheckpointQuery }, { additionalProperties: true });

/**
 * GET /api/v2/groups/{id}/members → `{members, next?}`, by user id: each
 * `{id, member_type: "user", type, connection_id?, created_at}`, `type` being
 * the group's (connection, organization or tenant). Checkpoint paging, 50 by
 * default; `fields` trims items.
 */
export const listGroupMembers: ManagementRouteFactory<GroupMemberService> = (_ctx, rbac) => managementRoute({
  method: 'GET',
  url: '/groups/:id/members',
  config: { scopes: ['read:group_members'] },
  schema: { params: GroupIdParams, querystring: Query, response: { 200: checkpointListResponse('members', GroupMemberResponse) } },
  handler: async (request) => {
    const query = request.query;
    return rbac.listGroupMembers(request.tenant, request.params.id, query, fieldSelection(query));
  },
});
