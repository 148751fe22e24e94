import { Type, type Static } from '@sinclair/typebox';
import { CheckpointPagingQuery, OffsetPagingQuery, parsePaging } from '../paging.js';
import type { ManagementRouteFactory } from '../route.js';
import { GroupResponse } from './schema.js';
import { checkpointScope, type FieldSelection, type GroupService } from './service.js';

/** The document's query parameters of GET /groups. */
const Query = Type.Object(
  {
    connection_id: Type.Optional(Type.String({ description: 'Filter groups by connection ID' })),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 128, description: 'Filter groups by name' })),
    external_id: Type.Optional(Type.String({ maxLength: 256, description: 'Filter groups by external ID' })),
    search: Type.Optional(Type.String({ minLength: 1, maxLength: 256, description: 'Search for groups by name or external ID' })),
    fields: Type.Optional(
      Type.String({
        maxLength: 256,
        description:
          'A comma separated list of fields to include or exclude (depending on include_fields) from the result, empty to retrieve all fields',
      }),
    ),
    include_fields: Type.Optional(
      Type.Boolean({ description: 'Whether specified fields are to be included (true) or excluded (false)' }),
    ),
    page: Type.Optional(OffsetPagingQuery.page),
    per_page: Type.Optional(OffsetPagingQuery.per_page),
    include_totals: Type.Optional(OffsetPagingQuery.include_totals),
    from: Type.Optional(CheckpointPagingQuery.from),
    take: Type.Optional(CheckpointPagingQuery.take),
  },
  { additionalProperties: true },
);

/** GET /api/v2/groups: offset or checkpoint paging (see GroupService.list). */
export const listGroups: ManagementRouteFactory<GroupService> = (ctx, groups) => ({
  method: 'GET',
  url: '/groups',
  config: { scopes: ['read:groups'] },
  schema: {
    querystring: Query,
    response: {
      200: Type.Union([
        Type.Array(GroupResponse),
        Type.Object(
          { groups: Type.Array(GroupResponse), start: Type.Number(), limit: Type.Number(), total: Type.Number() },
          { additionalProperties: false },
        ),
        Type.Object({ groups: Type.Array(GroupResponse), next: Type.Optional(Type.String()) }, { additionalProperties: false }),
      ]),
    },
  },
  handler: async (request) => {
    const query = request.query as Static<typeof Query>;
    const { connection_id, name, external_id, search } = query;
    const fields = (query.fields ?? '')
      .split(',')
      .map((f) => f.trim())
      .filter(Boolean);
    const selection: FieldSelection = { fields: new Set(fields), include: query.include_fields !== false };
    return groups.list(
      request.tenant,
      {
        ...(connection_id !== undefined && { connection_id }),
        ...(name !== undefined && { name }),
        ...(external_id !== undefined && { external_id }),
        ...(search !== undefined && { search }),
      },
      parsePaging(query, ctx.box, checkpointScope(request.tenant), ctx.now()),
      selection,
    );
  },
});
