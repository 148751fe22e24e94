import { Type } from '@sinclair/typebox';
import { OffsetQuery, offsetListResponse } from '../../lists.js';
import { UserPermissionResponse } from '../../rbac/schema.js';
import type { UserAccessService } from '../../rbac/user-access.js';
import { managementRoute, type ManagementRouteFactory } from '../../route.js';
import { userIdParams } from '../schema.js';

const Params = userIdParams('ID of the user to retrieve the permissions for');
const Query = Type.Object(OffsetQuery, { additionalProperties: true });

/**
 * GET /api/v2/users/{id}/permissions → an array, or `{permissions, start,
 * limit, total}` with include_totals: direct permissions and those of the
 * user's own roles, each with its `sources` (UserAccessService.listUserPermissions).
 */
export const listUserPermissions: ManagementRouteFactory<UserAccessService> = (_ctx, rbac) => managementRoute({
  method: 'GET',
  url: '/users/:id/permissions',
  config: { scopes: ['read:users'] },
  schema: { params: Params, querystring: Query, response: { 200: offsetListResponse('permissions', UserPermissionResponse) } },
  handler: async (request) => rbac.listUserPermissions(request.tenant, request.params.id, request.query),
});
