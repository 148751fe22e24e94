import { Type, type Static } from '@sinclair/typebox';
import { CheckpointPagingQuery, parsePaging } from '../../paging.js';
import type { ManagementRouteFactory } from '../../route.js';
import { RoleResponse } from '../../roles/schema.js';
import { GroupIdParams } from '../schema.js';
import { groupRolesCheckpointScope, type GroupService } from '../service.js';

/** `from` and `take` only; `take` is capped at 100 by the spec's Limits although the document gives no maximum here. */
const Query = Type.Object(
  { from: Type.Optional(CheckpointPagingQuery.from), take: Type.Optional(CheckpointPagingQuery.take) },
  { additionalProperties: true },
);

/** GET /api/v2/groups/{id}/roles → `{roles, next?}` (checkpoint paging, 50 by default). */
export const listGroupRoles: ManagementRouteFactory<GroupService> = (ctx, groups) => ({
  method: 'GET',
  url: '/groups/:id/roles',
  config: { scopes: ['read:group_roles'] },
  schema: {
    params: GroupIdParams,
    querystring: Query,
    response: { 200: Type.Object({ roles: Type.Array(RoleResponse), next: Type.Optional(Type.String()) }, { additionalProperties: false }) },
  },
  handler: async (request) => {
    const { id } = request.params as GroupIdParams;
    const query = request.query as Static<typeof Query>;
    // `take` defaults here so that parsePaging always answers with a checkpoint.
    const paging = parsePaging({ ...query, take: query.take ?? 50 }, ctx.box, groupRolesCheckpointScope(request.tenant, id), ctx.now());
    if (paging.kind !== 'checkpoint') throw new Error('unreachable: take is always set');
    return groups.listRoles(request.tenant, id, { after: paging.after, take: paging.take });
  },
});
