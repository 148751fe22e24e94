import { Type } from '@sinclair/typebox';
import { CheckpointQuery, checkpointListResponse, checkpointPaging, type CheckpointSealing } from '../../lists.js';
import { managementRoute, type ManagementRouteFactory } from '../../route.js';
import { RoleResponse } from '../../roles/schema.js';
import { GroupIdParams } from '../schema.js';
import { groupRolesCheckpointScope, type GroupService } from '../service.js';

/** `from` and `take` only; `take` is capped at 100 by the spec's Limits although the document gives no maximum here. */
const Query = Type.Object(CheckpointQuery, { additionalProperties: true });

/** GET /api/v2/groups/{id}/roles → `{roles, next?}` (checkpoint paging, 50 by default). */
export const listGroupRoles: ManagementRouteFactory<GroupService, CheckpointSealing> = (ctx, groups) => managementRoute({
  method: 'GET',
  url: '/groups/:id/roles',
  config: { scopes: ['read:group_roles'] },
  schema: { params: GroupIdParams, querystring: Query, response: { 200: checkpointListResponse('roles', RoleResponse) } },
  handler: async (request) => {
    const { id } = request.params;
    const paging = checkpointPaging(ctx, request.query, groupRolesCheckpointScope(request.tenant, id));
    return groups.listRoles(request.tenant, id, paging);
  },
});
