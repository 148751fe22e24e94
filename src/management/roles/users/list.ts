import { Type } from '@sinclair/typebox';
import { CheckpointQuery, OffsetQuery, pagedListResponse } from '../../lists.js';
import { RoleUserResponse } from '../../rbac/schema.js';
import { requireRoleMembersScope } from '../../rbac/scopes.js';
import type { RoleAccessService } from '../../rbac/role-access.js';
import { managementRoute, type ManagementRouteFactory } from '../../route.js';
import { roleIdParams } from '../schema.js';

const Params = roleIdParams('ID of the role to retrieve a list of users associated with');
const Query = Type.Object({ ...OffsetQuery, ...CheckpointQuery }, { additionalProperties: true });

/**
 * GET /api/v2/roles/{id}/users: the users the role is assigned to directly,
 * by user_id, each `{user_id, email, picture, name}`. Offset paging, or
 * checkpoint paging when `from` or `take` is given (what the SDK sends:
 * `include_totals=true&take=50` → `{users, next?}`, as recorded by go-auth0
 * TestRoleManager_UsersCheckpointPagination).
 */
export const listRoleUsers: ManagementRouteFactory<RoleAccessService> = (_ctx, rbac) => managementRoute({
  method: 'GET',
  url: '/roles/:id/users',
  config: { scopes: ['read:users', 'read:roles', 'read:role_members'] },
  onRequest: requireRoleMembersScope,
  schema: { params: Params, querystring: Query, response: { 200: pagedListResponse('users', RoleUserResponse) } },
  handler: async (request) => rbac.listRoleUsers(request.tenant, request.params.id, request.query),
});
