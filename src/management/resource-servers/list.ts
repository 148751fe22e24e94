import { Type } from '@sinclair/typebox';
import type { ResourceServerStore } from '../../domain/resource-servers/store.js';
import { OffsetPagingQuery } from '../paging.js';
import { managementRoute, type ManagementRouteFactory } from '../route.js';
import type { ResourceServerService } from './service.js';
import { ResourceServerResponse } from './schema.js';

const Query = Type.Object(
  {
    identifiers: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { description: 'An optional filter on the resource server identifier.' })),
    page: Type.Optional(OffsetPagingQuery.page),
    per_page: Type.Optional(OffsetPagingQuery.per_page),
    include_totals: Type.Optional(OffsetPagingQuery.include_totals),
    include_fields: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: true },
);

/** GET /api/v2/resource-servers */
export const listResourceServers: ManagementRouteFactory<ResourceServerService, { readonly stores: { readonly resourceServers: ResourceServerStore } }> = (ctx, resourceServers) => managementRoute({
  method: 'GET',
  url: '/resource-servers',
  config: { scopes: ['read:resource_servers'] },
  schema: {
    querystring: Query,
    response: {
      200: Type.Union([
        Type.Array(ResourceServerResponse),
        Type.Object({
          total: Type.Number(),
          start: Type.Number(),
          limit: Type.Number(),
          resource_servers: Type.Array(ResourceServerResponse),
        }),
      ]),
    },
  },
  handler: async (request) => {
    const query = request.query;
    const page = query.page ?? 0;
    const perPage = query.per_page ?? 50;
    const result = await ctx.stores.resourceServers.list(request.tenant.id, {
      offset: page * perPage,
      limit: perPage,
      ...(query.identifiers && { identifiers: query.identifiers }),
      withTotal: query.include_totals === true,
    });
    const items = result.rows.map((row) => resourceServers.toApi(request.tenant, row));
    if (query.include_totals !== true) return items;
    return { total: result.total ?? 0, start: page * perPage, limit: perPage, resource_servers: items };
  },
});
