import { Type } from '@sinclair/typebox';
import { OffsetQuery, offsetListResponse } from '../../lists.js';
import { PermissionResponse } from '../../rbac/schema.js';
import type { RoleAccessService } from '../../rbac/role-access.js';
import { managementRoute, type ManagementRouteFactory } from '../../route.js';
import { roleIdParams } from '../schema.js';

const Params = roleIdParams('ID of the role to list granted permissions');
const Query = Type.Object(OffsetQuery, { additionalProperties: true });

/**
 * GET /api/v2/roles/{id}/permissions → an array, or `{permissions, start,
 * limit, total}` with include_totals (offset paging only, as the document
 * offers), by API identifier then permission name.
 */
export const listRolePermissions: ManagementRouteFactory<RoleAccessService> = (_ctx, rbac) => managementRoute({
  method: 'GET',
  url: '/roles/:id/permissions',
  config: { scopes: ['read:roles'] },
  schema: { params: Params, querystring: Query, response: { 200: offsetListResponse('permissions', PermissionResponse) } },
  handler: async (request) => rbac.listRolePermissions(request.tenant, request.params.id, request.query),
});
