import { Type } from '@sinclair/typebox';
import { managementErrors } from '../../platform/http/errors.js';
import { FieldsQuery, fieldSelection } from '../fields.js';
import { offsetPaging } from '../lists.js';
import { checkOffsetWindow, OffsetPagingQuery, USERS_OFFSET_LIMIT } from '../paging.js';
import { managementRoute, type ManagementRouteFactory } from '../route.js';
import { MAX_QUERY_LENGTH, parseUserQuery, parseUserSort } from './search-query.js';
import type { UserService } from './service.js';
import { UserResponse } from './schema.js';

/**
 * GET /api/v2/users: offset paging (the document offers no checkpoint paging
 * here), `q` in the v3 search syntax (./search-query.ts), `sort`, `fields` /
 * `include_fields`. As on the service, only the first 1000 users of a search
 * can be paged through. `search_engine` must be v3 when given (v1 and v2 are
 * retired on the service); `connection` applies to v1 only and is ignored, as
 * is `primary_order` (the order is always deterministic).
 */
const Query = Type.Object(
  {
    per_page: Type.Optional(OffsetPagingQuery.per_page),
    page: Type.Optional(OffsetPagingQuery.page),
    include_totals: Type.Optional(OffsetPagingQuery.include_totals),
    q: Type.Optional(Type.String({ maxLength: MAX_QUERY_LENGTH, description: 'Query in Lucene query string syntax' })),
    search_engine: Type.Optional(Type.String({ maxLength: 8, description: 'The version of the search engine' })),
    sort: Type.Optional(Type.String({ maxLength: 64, description: 'Field to sort by' })),
    ...FieldsQuery,
  },
  { additionalProperties: true },
);

/** Every member optional: `fields` may leave any of them out. */
const Item = Type.Partial(UserResponse);

/** An array, or `{start, limit, length, users, total}` with include_totals. */
export const listUsers: ManagementRouteFactory<UserService> = (_ctx, users) => managementRoute({
  method: 'GET',
  url: '/users',
  config: { scopes: ['read:users'] },
  schema: {
    querystring: Query,
    response: {
      200: Type.Union([
        Type.Array(Item),
        Type.Object(
          { start: Type.Number(), limit: Type.Number(), length: Type.Number(), users: Type.Array(Item), total: Type.Number() },
          { additionalProperties: false },
        ),
      ]),
    },
  },
  handler: async (request) => {
    const query = request.query;
    if (query.search_engine !== undefined && query.search_engine !== 'v3') {
      throw managementErrors.badRequest(`The search engine ${query.search_engine} is not available: use v3.`, 'invalid_query_string');
    }
    const paging = offsetPaging(query);
    checkOffsetWindow(paging.page, paging.perPage, USERS_OFFSET_LIMIT);
    return users.list(request.tenant, {
      ...paging,
      filter: query.q === undefined ? undefined : parseUserQuery(query.q),
      sort: query.sort === undefined ? undefined : parseUserSort(query.sort),
      selection: fieldSelection(query),
    });
  },
});
