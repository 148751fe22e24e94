import { Type } from '@sinclair/typebox';
import { BODY_CONTENT_TYPES, formListAsArray, managementRoute, type ManagementRouteFactory } from '../../route.js';
import { AssignRoleUsersBody } from '../../rbac/schema.js';
import type { RoleAccessService } from '../../rbac/role-access.js';
import { roleIdParams } from '../schema.js';

const Params = roleIdParams('ID of the role to assign users to');

/**
 * POST /api/v2/roles/{id}/users → 200 `{}` (recorded: go-auth0
 * TestRoleManager_Users; management-api-wire-notes §3). Every listed user must
 * exist; all are assigned or none.
 */
export const assignRoleUsers: ManagementRouteFactory<RoleAccessService> = (_ctx, rbac) => managementRoute({
  method: 'POST',
  url: '/roles/:id/users',
  config: { scopes: ['update:roles', 'create:role_members'] },
  schema: {
    consumes: [...BODY_CONTENT_TYPES],
    params: Params,
    body: AssignRoleUsersBody,
    response: { 200: Type.Object({}, { additionalProperties: false }) },
  },
  preValidation: formListAsArray('users'),
  handler: async (request) => {
    await rbac.assignRoleUsers(request.tenant, request.params.id, request.body.users);
    return {};
  },
});
