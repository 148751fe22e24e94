import { Type } from '@sinclair/typebox';
import { fieldSelection, FieldsQuery } from '../fields.js';
import { CheckpointQuery, OffsetQuery, pagedListResponse, type CheckpointSealing } from '../lists.js';
import { parsePaging } from '../paging.js';
import { managementRoute, type ManagementRouteFactory } from '../route.js';
import { GroupResponse } from './schema.js';
import { checkpointScope, type GroupService } from './service.js';

/** The document's query parameters of GET /groups. */
const Query = Type.Object(
  {
    connection_id: Type.Optional(Type.String({ description: 'Filter groups by connection ID' })),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 128, description: 'Filter groups by name' })),
    external_id: Type.Optional(Type.String({ maxLength: 256, description: 'Filter groups by external ID' })),
    search: Type.Optional(Type.String({ minLength: 1, maxLength: 256, description: 'Search for groups by name or external ID' })),
    ...FieldsQuery,
    ...OffsetQuery,
    ...CheckpointQuery,
  },
  { additionalProperties: true },
);

/** GET /api/v2/groups: offset or checkpoint paging (see GroupService.list). */
export const listGroups: ManagementRouteFactory<GroupService, CheckpointSealing> = (ctx, groups) => managementRoute({
  method: 'GET',
  url: '/groups',
  config: { scopes: ['read:groups'] },
  schema: { querystring: Query, response: { 200: pagedListResponse('groups', GroupResponse) } },
  handler: async (request) => {
    const query = request.query;
    const { connection_id, name, external_id, search } = query;
    return groups.list(
      request.tenant,
      {
        ...(connection_id !== undefined && { connection_id }),
        ...(name !== undefined && { name }),
        ...(external_id !== undefined && { external_id }),
        ...(search !== undefined && { search }),
      },
      parsePaging(query, ctx.box, checkpointScope(request.tenant), ctx.now()),
      fieldSelection(query),
    );
  },
});
