import { Type } from '@sinclair/typebox';
import { fieldSelection, FieldsQuery } from '../../fields.js';
import { CheckpointQuery, OffsetQuery, pagedListResponse, type CheckpointSealing } from '../../lists.js';
import { parsePaging } from '../../paging.js';
import { managementRoute, type ManagementRouteFactory } from '../../route.js';
import { OrganizationIdParams } from '../schema.js';
import { OrganizationMemberResponse } from './schema.js';
import { membersScope, type OrganizationMemberService } from './service.js';

const Query = Type.Object({ ...OffsetQuery, ...CheckpointQuery, ...FieldsQuery }, { additionalProperties: true });

/**
 * GET /api/v2/organizations/{id}/members → by user id, offset (`{members,
 * start, limit, total}` with include_totals) or checkpoint (`{members, next?}`)
 * paging; `fields=roles` adds each member's roles in the organization.
 */
export const listOrganizationMembers: ManagementRouteFactory<OrganizationMemberService, CheckpointSealing> = (ctx, members) => managementRoute({
  method: 'GET',
  url: '/organizations/:id/members',
  config: { scopes: ['read:organization_members'] },
  schema: { params: OrganizationIdParams, querystring: Query, response: { 200: pagedListResponse('members', OrganizationMemberResponse) } },
  handler: async (request) => {
    const { tenant, query, params } = request;
    return members.list(tenant, params.id, parsePaging(query, ctx.box, membersScope(tenant, params.id), ctx.now()), fieldSelection(query));
  },
});
