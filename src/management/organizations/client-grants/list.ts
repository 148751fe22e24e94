import { Type } from '@sinclair/typebox';
import { OffsetPagingQuery } from '../../paging.js';
import { managementRoute, type ManagementRouteFactory } from '../../route.js';
import { OrganizationClientGrantResponse, OrganizationIdParams } from './schema.js';
import type { OrganizationClientGrantService } from './service.js';

const Query = Type.Object(
  {
    audience: Type.Optional(Type.String({ maxLength: 600, description: 'Optional filter on audience of the client grant' })),
    client_id: Type.Optional(Type.String({ description: 'Optional filter on client_id of the client grant' })),
    grant_ids: Type.Optional(
      Type.Array(Type.String(), { maxItems: 10, description: 'Optional filter on the ID of the client grant' }),
    ),
    page: Type.Optional(OffsetPagingQuery.page),
    per_page: Type.Optional(OffsetPagingQuery.per_page),
    include_totals: Type.Optional(OffsetPagingQuery.include_totals),
  },
  { additionalProperties: true },
);

/** GET /api/v2/organizations/{id}/client-grants: offset paging. */
export const listOrganizationClientGrants: ManagementRouteFactory<OrganizationClientGrantService> = (_ctx, clientGrants) => managementRoute({
  method: 'GET',
  url: '/organizations/:id/client-grants',
  config: { scopes: ['read:organization_client_grants'] },
  schema: {
    params: OrganizationIdParams,
    querystring: Query,
    response: {
      200: Type.Union([
        Type.Array(OrganizationClientGrantResponse),
        // Members in the order the service sends them.
        Type.Object({
          client_grants: Type.Array(OrganizationClientGrantResponse),
          start: Type.Number(),
          limit: Type.Number(),
          total: Type.Number(),
        }),
      ]),
    },
  },
  handler: async (request) => {
    const { id } = request.params;
    const query = request.query;
    const { audience, client_id, grant_ids } = query;
    return clientGrants.list(
      request.tenant,
      id,
      {
        ...(audience !== undefined && { audience }),
        ...(client_id !== undefined && { client_id }),
        ...(grant_ids !== undefined && { grant_ids }),
      },
      { page: query.page ?? 0, perPage: query.per_page ?? 50, includeTotals: query.include_totals === true },
    );
  },
});
