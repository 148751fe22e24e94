import { Type } from '@sinclair/typebox';
import { fieldSelection, FieldsQuery } from '../../fields.js';
import { UserGroupResponse } from '../../groups/schema.js';
import { CheckpointQuery, OffsetQuery, pagedListResponse } from '../../lists.js';
import type { UserAccessService } from '../../rbac/user-access.js';
import { managementRoute, type ManagementRouteFactory } from '../../route.js';
import { userIdParams } from '../schema.js';

const Params = userIdParams('ID of the user to list groups for');
const Query = Type.Object({ ...FieldsQuery, ...OffsetQuery, ...CheckpointQuery }, { additionalProperties: true });

/**
 * GET /api/v2/users/{id}/groups: the groups the user is a member of, each with
 * `membership_created_at`, by group id. Offset paging, or checkpoint paging
 * when `from` or `take` is given (what the SDK sends); `fields` trims items.
 */
export const listUserGroups: ManagementRouteFactory<UserAccessService> = (_ctx, rbac) => managementRoute({
  method: 'GET',
  url: '/users/:id/groups',
  config: { scopes: ['read:groups'] },
  schema: { params: Params, querystring: Query, response: { 200: pagedListResponse('groups', UserGroupResponse) } },
  handler: async (request) => {
    const query = request.query;
    return rbac.listUserGroups(request.tenant, request.params.id, query, fieldSelection(query));
  },
});
