import { managementRoute, NoContent, type ManagementRouteFactory } from '../route.js';
import { ActionParams, DeleteActionQuery } from './schema.js';
import type { ActionService } from './service.js';

/** DELETE /api/v2/actions/actions/{id} → 204; a bound action only with `force=true`, which removes its bindings. */
export const deleteAction: ManagementRouteFactory<ActionService> = (_ctx, actions) => managementRoute({
  method: 'DELETE',
  url: '/actions/actions/:id',
  config: { scopes: ['delete:actions'] },
  schema: { params: ActionParams, querystring: DeleteActionQuery, response: { 204: NoContent } },
  handler: async (request, reply) => {
    await actions.delete(request.tenant, request.params.id, request.query.force === true);
    return reply.code(204).send();
  },
});
