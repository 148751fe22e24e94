import { Type } from '@sinclair/typebox';
import { OffsetQuery, offsetListResponse } from '../../lists.js';
import type { OrganizationMemberService } from '../../organizations/members/service.js';
import { OrganizationResponse } from '../../organizations/schema.js';
import { managementRoute, type ManagementRouteFactory } from '../../route.js';
import { userIdParams } from '../schema.js';

const Query = Type.Object(OffsetQuery, { additionalProperties: true });

/** GET /api/v2/users/{id}/organizations → the organizations the user is a member of, by id. */
export const listUserOrganizations: ManagementRouteFactory<OrganizationMemberService> = (_ctx, members) => managementRoute({
  method: 'GET',
  url: '/users/:id/organizations',
  config: { scopes: ['read:users', 'read:organizations'] },
  schema: {
    params: userIdParams('ID of the user to retrieve the organizations for'),
    querystring: Query,
    response: { 200: offsetListResponse('organizations', OrganizationResponse) },
  },
  handler: async (request) => members.userOrganizations(request.tenant, request.params.id, request.query),
});
