import { Type } from '@sinclair/typebox';
import { offsetPaging } from '../lists.js';
import { OffsetPagingQuery } from '../paging.js';
import { managementRoute, type ManagementRouteFactory } from '../route.js';
import type { RoleService } from './service.js';
import { RoleResponse } from './schema.js';

/** The document's query parameters of GET /roles: offset paging only, and `name_filter`. */
const Query = Type.Object(
  {
    per_page: Type.Optional(OffsetPagingQuery.per_page),
    page: Type.Optional(OffsetPagingQuery.page),
    include_totals: Type.Optional(OffsetPagingQuery.include_totals),
    name_filter: Type.Optional(Type.String({ description: 'Optional filter on name (case-insensitive)' })),
  },
  { additionalProperties: true },
);

/** GET /api/v2/roles: an array, or `{roles, start, limit, total}` with include_totals. */
export const listRoles: ManagementRouteFactory<RoleService> = (_ctx, roles) => managementRoute({
  method: 'GET',
  url: '/roles',
  config: { scopes: ['read:roles'] },
  schema: {
    querystring: Query,
    response: {
      200: Type.Union([
        Type.Array(RoleResponse),
        Type.Object(
          { roles: Type.Array(RoleResponse), start: Type.Number(), limit: Type.Number(), total: Type.Number() },
          { additionalProperties: false },
        ),
      ]),
    },
  },
  handler: async (request) => {
    const query = request.query;
    return roles.list(request.tenant, {
      ...offsetPaging(query),
      // An empty filter filters nothing.
      ...(query.name_filter && { nameFilter: query.name_filter }),
    });
  },
});
