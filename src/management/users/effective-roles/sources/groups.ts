import { Type } from '@sinclair/typebox';
import { GroupResponse } from '../../../groups/schema.js';
import { CheckpointQuery, checkpointListResponse } from '../../../lists.js';
import type { UserAccessService } from '../../../rbac/user-access.js';
import { managementRoute, type ManagementRouteFactory } from '../../../route.js';
import { NO_CONTROL_CHARACTERS } from '../../../strings.js';
import { userIdParams } from '../../schema.js';

const Params = userIdParams('ID of the user to list role source groups for');
const Query = Type.Object(
  {
    role_id: Type.String({ minLength: 1, maxLength: 64, pattern: NO_CONTROL_CHARACTERS, description: 'ID of the role to get source groups for' }),
    ...CheckpointQuery,
  },
  { additionalProperties: true },
);

/** GET /api/v2/users/{id}/effective-roles/sources/groups?role_id= → `{groups, next?}`: the user's groups that have the role, by group id. */
export const listRoleSourceGroups: ManagementRouteFactory<UserAccessService> = (_ctx, rbac) => managementRoute({
  method: 'GET',
  url: '/users/:id/effective-roles/sources/groups',
  config: { scopes: ['read:user_role_source_groups'] },
  schema: { params: Params, querystring: Query, response: { 200: checkpointListResponse('groups', GroupResponse) } },
  handler: async (request) => {
    const query = request.query;
    return rbac.listRoleSourceGroups(request.tenant, request.params.id, query.role_id, query);
  },
});
