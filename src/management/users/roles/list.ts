import { Type } from '@sinclair/typebox';
import { OffsetQuery, offsetListResponse } from '../../lists.js';
import { requireRoleMembersScope } from '../../rbac/scopes.js';
import type { UserAccessService } from '../../rbac/user-access.js';
import { RoleResponse } from '../../roles/schema.js';
import { managementRoute, type ManagementRouteFactory } from '../../route.js';
import { userIdParams } from '../schema.js';

const Params = userIdParams('ID of the user to list roles for');
const Query = Type.Object(OffsetQuery, { additionalProperties: true });

/**
 * GET /api/v2/users/{id}/roles → an array, or `{roles, start, limit, total}`
 * with include_totals (recorded: go-auth0 TestUserManager_Roles): the roles
 * assigned to the user directly, by role id.
 */
export const listUserRoles: ManagementRouteFactory<UserAccessService> = (_ctx, rbac) => managementRoute({
  method: 'GET',
  url: '/users/:id/roles',
  config: { scopes: ['read:users', 'read:roles', 'read:role_members'] },
  onRequest: requireRoleMembersScope,
  schema: { params: Params, querystring: Query, response: { 200: offsetListResponse('roles', RoleResponse) } },
  handler: async (request) => rbac.listUserRoles(request.tenant, request.params.id, request.query),
});
