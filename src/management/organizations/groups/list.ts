import { checkpointListResponse, type CheckpointSealing } from '../../lists.js';
import { managementRoute, type ManagementRouteFactory } from '../../route.js';
import { GroupResponse } from '../../groups/schema.js';
import { OrganizationGroupsParams, OrganizationGroupsQuery } from './schema.js';
import type { OrganizationGroupService } from './service.js';

/** GET /api/v2/organizations/{organization_id}/groups → `{groups, next?}` (checkpoint paging). */
export const listOrganizationGroups: ManagementRouteFactory<OrganizationGroupService, CheckpointSealing> = (_ctx, groups) => managementRoute({
  method: 'GET',
  url: '/organizations/:organization_id/groups',
  config: { scopes: ['read:organization_groups'] },
  schema: { params: OrganizationGroupsParams, querystring: OrganizationGroupsQuery, response: { 200: checkpointListResponse('groups', GroupResponse) } },
  handler: async (request) => groups.list(request.tenant, request.params.organization_id, request.query),
});
