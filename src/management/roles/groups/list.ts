import { Type } from '@sinclair/typebox';
import { GroupResponse } from '../../groups/schema.js';
import { CheckpointQuery, checkpointListResponse } from '../../lists.js';
import type { RoleAccessService } from '../../rbac/role-access.js';
import { managementRoute, type ManagementRouteFactory } from '../../route.js';
import { roleIdParams } from '../schema.js';

const Params = roleIdParams('Unique identifier for the role (service-generated)');
const Query = Type.Object(CheckpointQuery, { additionalProperties: true });

/** GET /api/v2/roles/{id}/groups → `{groups, next?}`: the groups the role is assigned to (checkpoint paging, 50 by default). */
export const listRoleGroups: ManagementRouteFactory<RoleAccessService> = (_ctx, rbac) => managementRoute({
  method: 'GET',
  url: '/roles/:id/groups',
  config: { scopes: ['read:group_roles'] },
  schema: { params: Params, querystring: Query, response: { 200: checkpointListResponse('groups', GroupResponse) } },
  handler: async (request) => rbac.listRoleGroups(request.tenant, request.params.id, request.query),
});
