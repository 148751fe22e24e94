import { Type } from '@sinclair/typebox';
import { managementRoute, type ManagementRouteFactory } from '../route.js';
import { fieldSelection, type ConnectionService } from './service.js';
import { ConnectionResponse, FieldsQuery, IdParams } from './schema.js';

const Query = Type.Object(
  { fields: Type.Optional(FieldsQuery.fields), include_fields: Type.Optional(FieldsQuery.include_fields) },
  { additionalProperties: true },
);

/** GET /api/v2/connections/{id} */
export const getConnection: ManagementRouteFactory<ConnectionService> = (_ctx, connections) => managementRoute({
  method: 'GET',
  url: '/connections/:id',
  config: { scopes: ['read:connections'] },
  schema: { params: IdParams, querystring: Query, response: { 200: ConnectionResponse } },
  handler: async (request) => {
    const query = request.query;
    return connections.get(request.tenant, request.params.id, fieldSelection(query.fields, query.include_fields));
  },
});
