import { Type } from '@sinclair/typebox';
import { OffsetQuery, offsetListResponse } from '../../../lists.js';
import { RoleResponse } from '../../../roles/schema.js';
import { managementRoute, type ManagementRouteFactory } from '../../../route.js';
import { MemberParams } from '../schema.js';
import type { OrganizationMemberService } from '../service.js';

const Query = Type.Object(OffsetQuery, { additionalProperties: true });

/** GET /api/v2/organizations/{id}/members/{user_id}/roles → the member's roles in the organization, by role id. */
export const listOrganizationMemberRoles: ManagementRouteFactory<OrganizationMemberService> = (_ctx, members) => managementRoute({
  method: 'GET',
  url: '/organizations/:id/members/:user_id/roles',
  config: { scopes: ['read:organization_member_roles'] },
  schema: { params: MemberParams, querystring: Query, response: { 200: offsetListResponse('roles', RoleResponse) } },
  handler: async (request) => members.listRoles(request.tenant, request.params.id, request.params.user_id, request.query),
});
