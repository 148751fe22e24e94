import { Type } from '@sinclair/typebox';
import { CheckpointQuery, checkpointListResponse } from '../../../lists.js';
import { RoleWithSourcesResponse } from '../../../rbac/schema.js';
import type { UserAccessService } from '../../../rbac/user-access.js';
import { managementRoute, type ManagementRouteFactory } from '../../../route.js';
import { NO_CONTROL_CHARACTERS } from '../../../strings.js';
import { userIdParams } from '../../schema.js';
import { ResourceServerIdentifierQuery } from '../list.js';

const Params = userIdParams('ID of the user to retrieve the permissions for');
const Query = Type.Object(
  {
    resource_server_identifier: ResourceServerIdentifierQuery,
    permission_name: Type.String({ minLength: 1, maxLength: 280, pattern: NO_CONTROL_CHARACTERS, description: 'Name of this permission' }),
    ...CheckpointQuery,
  },
  { additionalProperties: true },
);

/**
 * GET /api/v2/users/{id}/effective-permissions/sources/effective-roles →
 * `{roles, next?}`: the roles that give the user the permission, each with
 * `sources` (`direct`, `groups`), by role id.
 */
export const listEffectivePermissionRoles: ManagementRouteFactory<UserAccessService> = (_ctx, rbac) => managementRoute({
  method: 'GET',
  url: '/users/:id/effective-permissions/sources/effective-roles',
  config: { scopes: ['read:user_permission_source_roles'] },
  schema: { params: Params, querystring: Query, response: { 200: checkpointListResponse('roles', RoleWithSourcesResponse) } },
  handler: async (request) => {
    const query = request.query;
    const permission = { resource_server_identifier: query.resource_server_identifier, permission_name: query.permission_name };
    return rbac.listEffectivePermissionRoles(request.tenant, request.params.id, permission, query);
  },
});
