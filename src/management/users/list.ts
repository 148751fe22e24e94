import { Type } from '@sinclair/typebox';
import { managementErrors } from '../../platform/http/errors.js';
import { offsetPaging } from '../lists.js';
import { checkOffsetWindow, OffsetPagingQuery, USERS_OFFSET_LIMIT } from '../paging.js';
import { managementRoute, type ManagementRouteFactory } from '../route.js';
import type { UserService } from './service.js';
import { UserResponse } from './schema.js';

/**
 * Offset paging only (the document offers no checkpoint paging on GET /users).
 * `q`/`search_engine` are refused rather than ignored, so that a search never
 * answers with every user; `sort`, `fields`, `include_fields`, `connection` and
 * `primary_order` are accepted and ignored (the order is creation time, then user_id).
 * As on the service, only the first 1000 users can be paged through.
 */
const Query = Type.Object(
  {
    per_page: Type.Optional(OffsetPagingQuery.per_page),
    page: Type.Optional(OffsetPagingQuery.page),
    include_totals: Type.Optional(OffsetPagingQuery.include_totals),
    q: Type.Optional(Type.String()),
    search_engine: Type.Optional(Type.String()),
  },
  { additionalProperties: true },
);

/** GET /api/v2/users: an array, or `{start, limit, length, users, total}` with include_totals. */
export const listUsers: ManagementRouteFactory<UserService> = (_ctx, users) => managementRoute({
  method: 'GET',
  url: '/users',
  config: { scopes: ['read:users'] },
  schema: {
    querystring: Query,
    response: {
      200: Type.Union([
        Type.Array(UserResponse),
        Type.Object(
          { start: Type.Number(), limit: Type.Number(), length: Type.Number(), users: Type.Array(UserResponse), total: Type.Number() },
          { additionalProperties: false },
        ),
      ]),
    },
  },
  handler: async (request) => {
    const query = request.query;
    if (query.q !== undefined || query.search_engine !== undefined) {
      throw managementErrors.badRequest('User search (q, search_engine) is not supported by this server.', 'operation_not_supported');
    }
    const paging = offsetPaging(query);
    checkOffsetWindow(paging.page, paging.perPage, USERS_OFFSET_LIMIT);
    return users.list(request.tenant, paging);
  },
});
