import { Type } from '@sinclair/typebox';
import type { CheckpointSealing } from '../lists.js';
import { StringEnum } from '../../platform/http/schema-types.js';
import { CheckpointPagingQuery, MAX_PER_PAGE, OffsetPagingQuery, parsePaging } from '../paging.js';
import { managementRoute, type ManagementRouteFactory } from '../route.js';
import { checkpointScope, fieldSelection, type ConnectionService } from './service.js';
import { ConnectionForList, FieldsQuery, STRATEGIES } from './schema.js';

/** The document's query parameters of GET /connections. */
const Query = Type.Object(
  {
    per_page: Type.Optional(
      Type.Integer({ minimum: 1, maximum: MAX_PER_PAGE, description: 'The amount of entries per page. Defaults to 100 if not provided' }),
    ),
    page: Type.Optional(OffsetPagingQuery.page),
    include_totals: Type.Optional(OffsetPagingQuery.include_totals),
    from: Type.Optional(CheckpointPagingQuery.from),
    take: Type.Optional(CheckpointPagingQuery.take),
    strategy: Type.Optional(
      Type.Array(StringEnum(STRATEGIES), { description: 'Provide strategies to only retrieve connections with such strategies' }),
    ),
    name: Type.Optional(Type.String({ description: 'Provide the name of the connection to retrieve' })),
    fields: Type.Optional(FieldsQuery.fields),
    include_fields: Type.Optional(FieldsQuery.include_fields),
  },
  { additionalProperties: true },
);

/** GET /api/v2/connections: an array, `{total, start, limit, connections}`, or `{connections, next?}` (checkpoint). */
export const listConnections: ManagementRouteFactory<ConnectionService, CheckpointSealing> = (ctx, connections) => managementRoute({
  method: 'GET',
  url: '/connections',
  config: { scopes: ['read:connections'] },
  schema: {
    querystring: Query,
    response: {
      200: Type.Union([
        Type.Array(ConnectionForList),
        Type.Object({ total: Type.Number(), start: Type.Number(), limit: Type.Number(), connections: Type.Array(ConnectionForList) }),
        Type.Object({ connections: Type.Array(ConnectionForList), next: Type.Optional(Type.String()) }),
      ]),
    },
  },
  handler: async (request) => {
    const query = request.query;
    return connections.list(
      request.tenant,
      { ...(query.strategy !== undefined && { strategies: query.strategy }), ...(query.name !== undefined && { name: query.name }) },
      // per_page defaults to 100 here, not 50 (the document's parameter description).
      parsePaging(query, ctx.box, checkpointScope(request.tenant), ctx.now(), 100),
      fieldSelection(query.fields, query.include_fields),
    );
  },
});
