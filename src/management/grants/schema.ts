/**
 * User-grant schemas, from the service's OpenAPI document (`ConsentGrant`,
 * `ListUserGrantsOffsetPaginatedResponseContent` and the query parameters of
 * GET and DELETE /grants). Descriptions appear in validation messages, so they
 * carry no trailing period (the service's messages end with `(<description>).`).
 */
import { Type } from '@sinclair/typebox';
import { OffsetPagingQuery } from '../paging.js';

export const UserGrantResponse = Type.Object(
  {
    id: Type.String({ description: 'ID of the grant.' }),
    clientID: Type.String({ description: 'ID of the client.' }),
    user_id: Type.String({ description: 'ID of the user.' }),
    audience: Type.String({ description: 'Audience of the grant.' }),
    scope: Type.Array(Type.String({ minLength: 1 }), { description: 'Scopes included in this grant.' }),
  },
  { additionalProperties: false },
);

/** Offset paging only (the document offers no checkpoint paging here), and three exact-match filters. */
export const ListQuery = Type.Object(
  {
    per_page: Type.Optional(OffsetPagingQuery.per_page),
    page: Type.Optional(OffsetPagingQuery.page),
    include_totals: Type.Optional(OffsetPagingQuery.include_totals),
    user_id: Type.Optional(Type.String({ description: 'user_id of the grants to retrieve' })),
    client_id: Type.Optional(Type.String({ description: 'client_id of the grants to retrieve' })),
    audience: Type.Optional(Type.String({ description: 'audience of the grants to retrieve' })),
  },
  { additionalProperties: true },
);

/** Key order as the document lists it: start, limit, total, grants (no `length`, unlike the users list). */
export const ListResponse = Type.Union([
  Type.Array(UserGrantResponse),
  Type.Object(
    { start: Type.Number(), limit: Type.Number(), total: Type.Number(), grants: Type.Array(UserGrantResponse) },
    { additionalProperties: false },
  ),
]);

export const DeleteByUserQuery = Type.Object(
  { user_id: Type.String({ description: 'user_id of the grant to delete' }) },
  { additionalProperties: true },
);

export const IdParams = Type.Object({ id: Type.String({ minLength: 1, description: 'ID of the grant to delete' }) });
