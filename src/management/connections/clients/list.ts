import { Type } from '@sinclair/typebox';
import type { CheckpointSealing } from '../../lists.js';
import { parsePaging } from '../../paging.js';
import { managementRoute, type ManagementRouteFactory } from '../../route.js';
import { clientsCheckpointScope, type ConnectionService } from '../service.js';
import { EnabledClientsResponse, IdParams } from '../schema.js';

/** Checkpoint paging only, with the document's own bounds (take up to 1000). */
const Query = Type.Object(
  {
    take: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, description: 'Number of results per page. Defaults to 50.' })),
    from: Type.Optional(Type.String({ maxLength: 1000, description: 'Optional Id from which to start selection.' })),
  },
  { additionalProperties: true },
);

/** GET /api/v2/connections/{id}/clients → `{clients: [{client_id}], next?}` */
export const listConnectionClients: ManagementRouteFactory<ConnectionService, CheckpointSealing> = (ctx, connections) => managementRoute({
  method: 'GET',
  url: '/connections/:id/clients',
  config: { scopes: ['read:connections'] },
  schema: { params: IdParams, querystring: Query, response: { 200: EnabledClientsResponse } },
  handler: async (request) => {
    const { id } = request.params;
    const query = request.query;
    // `take` is always set so that parsePaging answers with a checkpoint.
    const paging = parsePaging({ ...query, take: query.take ?? 50 }, ctx.box, clientsCheckpointScope(request.tenant, id), ctx.now());
    if (paging.kind !== 'checkpoint') throw new Error('unreachable: checkpoint paging expected');
    return connections.enabledClients(request.tenant, id, paging);
  },
});
