import { Type } from '@sinclair/typebox';
import type { CheckpointSealing } from '../lists.js';
import { StringEnum } from '../../platform/http/schema-types.js';
import { requireScope } from '../auth.js';
import { managementRoute, type ManagementRouteFactory } from '../route.js';
import { fieldSelection, type ConnectionService } from './service.js';
import { ConnectionForList, FieldsQuery, STRATEGIES } from './schema.js';

const Params = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64, description: 'ID of the client for which to retrieve enabled connections.' }) });

/** The document's query: checkpoint paging only, a strategy filter and the field selection. */
const Query = Type.Object(
  {
    strategy: Type.Optional(Type.Array(StringEnum(STRATEGIES), { description: 'Provide strategies to only retrieve connections with such strategies' })),
    from: Type.Optional(Type.String({ maxLength: 1000, description: 'Optional Id from which to start selection.' })),
    take: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'Number of results per page. Defaults to 50.' })),
    fields: Type.Optional(FieldsQuery.fields),
    include_fields: Type.Optional(FieldsQuery.include_fields),
  },
  { additionalProperties: true },
);

const ALSO_ONE_OF = ['read:clients', 'read:client_summary'];

/**
 * GET /api/v2/clients/{id}/connections → `{connections, next?}`: the
 * connections enabled for the client, by id, checkpoint-paged. The document
 * asks `read:connections` and one of `read:clients` / `read:client_summary`.
 */
export const listClientConnections: ManagementRouteFactory<ConnectionService, CheckpointSealing> = (_ctx, connections) => managementRoute({
  method: 'GET',
  url: '/clients/:id/connections',
  config: { scopes: ['read:connections'] },
  schema: {
    params: Params,
    querystring: Query,
    response: { 200: Type.Object({ connections: Type.Array(ConnectionForList), next: Type.Optional(Type.String()) }) },
  },
  handler: async (request) => {
    requireScope(request.principal!, ALSO_ONE_OF);
    const query = request.query;
    const paging = { ...(query.from !== undefined && { from: query.from }), ...(query.take !== undefined && { take: query.take }) };
    return connections.listForClient(request.tenant, request.params.id, query.strategy, paging, fieldSelection(query.fields, query.include_fields));
  },
});
