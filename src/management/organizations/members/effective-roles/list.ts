import { Type } from '@sinclair/typebox';
import { checkpointListResponse, CheckpointQuery, type CheckpointSealing } from '../../../lists.js';
import { RoleWithSourcesResponse } from '../../../rbac/schema.js';
import { managementRoute, type ManagementRouteFactory } from '../../../route.js';
import type { OrganizationGroupService } from '../../groups/service.js';
import { MemberParams } from '../schema.js';

const Query = Type.Object(CheckpointQuery, { additionalProperties: true });

/** GET /api/v2/organizations/{id}/members/{user_id}/effective-roles → `{roles, next?}`: the member's roles in the organization, directly or through groups. */
export const listOrganizationMemberEffectiveRoles: ManagementRouteFactory<OrganizationGroupService, CheckpointSealing> = (_ctx, groups) => managementRoute({
  method: 'GET',
  url: '/organizations/:id/members/:user_id/effective-roles',
  config: { scopes: ['read:organization_member_effective_roles'] },
  schema: { params: MemberParams, querystring: Query, response: { 200: checkpointListResponse('roles', RoleWithSourcesResponse) } },
  handler: async (request) => groups.listMemberEffectiveRoles(request.tenant, request.params.id, request.params.user_id, request.query),
});
