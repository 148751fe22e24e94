import { Type } from '@sinclair/typebox';
import type { CheckpointSealing } from '../lists.js';
import { StringEnum } from '../../platform/http/schema-types.js';
import { CheckpointPagingQuery, OffsetPagingQuery, parsePaging } from '../paging.js';
import { managementRoute, type ManagementRouteFactory } from '../route.js';
import { ClientGrantResponse } from './schema.js';
import { checkpointScope, type ClientGrantService } from './service.js';

const Query = Type.Object(
  {
    per_page: Type.Optional(OffsetPagingQuery.per_page),
    page: Type.Optional(OffsetPagingQuery.page),
    include_totals: Type.Optional(OffsetPagingQuery.include_totals),
    from: Type.Optional(CheckpointPagingQuery.from),
    take: Type.Optional(CheckpointPagingQuery.take),
    audience: Type.Optional(Type.String({ description: 'Optional filter on audience.' })),
    client_id: Type.Optional(Type.String({ description: 'Optional filter on client_id.' })),
    allow_any_organization: Type.Optional(Type.Boolean({ description: 'Optional filter on allow_any_organization.' })),
    subject_type: Type.Optional(StringEnum(['client', 'user'], { description: 'The type of application access the client grant allows.' })),
    default_for: Type.Optional(StringEnum(['third_party_clients'], { description: 'Optional filter on default_for.' })),
  },
  { additionalProperties: true },
);

/** GET /api/v2/client-grants: offset or checkpoint paging. */
export const listClientGrants: ManagementRouteFactory<ClientGrantService, CheckpointSealing> = (ctx, clientGrants) => managementRoute({
  method: 'GET',
  url: '/client-grants',
  config: { scopes: ['read:client_grants'] },
  schema: {
    querystring: Query,
    response: {
      200: Type.Union([
        Type.Array(ClientGrantResponse),
        Type.Object({ total: Type.Number(), start: Type.Number(), limit: Type.Number(), client_grants: Type.Array(ClientGrantResponse) }),
        Type.Object({ client_grants: Type.Array(ClientGrantResponse), next: Type.Optional(Type.String()) }),
      ]),
    },
  },
  handler: async (request) => {
    const query = request.query;
    const { audience, client_id, allow_any_organization, subject_type, default_for } = query;
    return clientGrants.list(
      request.tenant,
      {
        ...(audience !== undefined && { audience }),
        ...(client_id !== undefined && { client_id }),
        ...(allow_any_organization !== undefined && { allow_any_organization }),
        ...(subject_type !== undefined && { subject_type }),
        ...(default_for !== undefined && { default_for }),
      },
      parsePaging(query, ctx.box, checkpointScope(request.tenant), ctx.now()),
    );
  },
});
