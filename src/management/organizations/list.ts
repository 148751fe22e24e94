import { Type } from '@sinclair/typebox';
import type { CheckpointSealing } from '../lists.js';
import { CheckpointPagingQuery, OffsetPagingQuery, parsePaging } from '../paging.js';
import { managementRoute, type ManagementRouteFactory } from '../route.js';
import { OrganizationResponse } from './schema.js';
import { checkpointScope, type OrganizationService, type OrganizationSort } from './service.js';
import type { OrganizationSortField } from '../../domain/organizations/store.js';

const Query = Type.Object(
  {
    // Offset paging reaches 1000 pages at most; beyond, the document points to checkpoint paging.
    page: Type.Optional(OffsetPagingQuery.page),
    per_page: Type.Optional(OffsetPagingQuery.per_page),
    include_totals: Type.Optional(OffsetPagingQuery.include_totals),
    from: Type.Optional(CheckpointPagingQuery.from),
    take: Type.Optional(CheckpointPagingQuery.take),
    sort: Type.Optional(
      Type.String({
        maxLength: 15,
        pattern: '^(name|display_name|created_at):(1|-1)$',
        description: 'Field to sort by. Use field:order where order is 1 for ascending and -1 for descending',
      }),
    ),
  },
  { additionalProperties: true },
);

/** `name:1` → by name, ascending. */
function parseSort(sort: string | undefined): OrganizationSort | undefined {
  if (sort === undefined) return undefined;
  const [field, order] = sort.split(':');
  return { field: field as OrganizationSortField, descending: order === '-1' };
}

/** GET /api/v2/organizations: offset or checkpoint paging. */
export const listOrganizations: ManagementRouteFactory<OrganizationService, CheckpointSealing> = (ctx, organizations) => managementRoute({
  method: 'GET',
  url: '/organizations',
  config: { scopes: ['read:organizations', 'read:organizations_summary'] },
  schema: {
    querystring: Query,
    response: {
      200: Type.Union([
        Type.Array(OrganizationResponse),
        // Members in the order the service sends them.
        Type.Object({ organizations: Type.Array(OrganizationResponse), start: Type.Number(), limit: Type.Number(), total: Type.Number() }),
        Type.Object({ organizations: Type.Array(OrganizationResponse), next: Type.Optional(Type.String()) }),
      ]),
    },
  },
  handler: async (request) => {
    const query = request.query;
    return organizations.list(request.tenant, parsePaging(query, ctx.box, checkpointScope(request.tenant), ctx.now()), parseSort(query.sort));
  },
});
