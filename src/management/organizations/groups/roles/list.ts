import { checkpointListResponse, type CheckpointSealing } from '../../../lists.js';
import { managementRoute, type ManagementRouteFactory } from '../../../route.js';
import { RoleResponse } from '../../../roles/schema.js';
import { OrganizationGroupParams, OrganizationGroupsQuery } from '../schema.js';
import type { OrganizationGroupService } from '../service.js';

/** GET /api/v2/organizations/{organization_id}/groups/{group_id}/roles → `{roles, next?}`. */
export const listOrganizationGroupRoles: ManagementRouteFactory<OrganizationGroupService, CheckpointSealing> = (_ctx, groups) => managementRoute({
  method: 'GET',
  url: '/organizations/:organization_id/groups/:group_id/roles',
  config: { scopes: ['read:organization_group_roles'] },
  schema: { params: OrganizationGroupParams, querystring: OrganizationGroupsQuery, response: { 200: checkpointListResponse('roles', RoleResponse) } },
  handler: async (request) => groups.listRoles(request.tenant, request.params.organization_id, request.params.group_id, request.query),
});
