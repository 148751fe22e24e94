import { Type } from '@sinclair/typebox';
import { checkpointListResponse, CheckpointQuery, type CheckpointSealing } from '../../../../lists.js';
import { GroupResponse } from '../../../../groups/schema.js';
import { managementRoute, type ManagementRouteFactory } from '../../../../route.js';
import type { OrganizationGroupService } from '../../../groups/service.js';
import { MemberParams } from '../../schema.js';

const Query = Type.Object({ ...CheckpointQuery, role_id: Type.String({ minLength: 1, maxLength: 64, description: 'The role ID to get group sources for' }) }, { additionalProperties: true });

/** GET /api/v2/organizations/{id}/members/{user_id}/effective-roles/sources/groups?role_id= → `{groups, next?}`. */
export const listOrganizationMemberRoleSourceGroups: ManagementRouteFactory<OrganizationGroupService, CheckpointSealing> = (_ctx, groups) => managementRoute({
  method: 'GET',
  url: '/organizations/:id/members/:user_id/effective-roles/sources/groups',
  config: { scopes: ['read:organization_member_role_source_groups'] },
  schema: { params: MemberParams, querystring: Query, response: { 200: checkpointListResponse('groups', GroupResponse) } },
  handler: async (request) => groups.listMemberRoleSourceGroups(request.tenant, request.params.id, request.params.user_id, request.query.role_id, request.query),
});
