import { managementRoute, NoContent, type ManagementRouteFactory } from '../route.js';
import { IdParams } from './schema.js';
import type { ConsentGrantService } from './service.js';

/** DELETE /api/v2/grants/{id} → 204, also for an id the tenant does not have (see service.ts). */
export const deleteUserGrant: ManagementRouteFactory<ConsentGrantService> = (_ctx, grants) => managementRoute({
  method: 'DELETE',
  url: '/grants/:id',
  config: { scopes: ['delete:grants'] },
  schema: { params: IdParams, response: { 204: NoContent } },
  handler: async (request, reply) => {
    await grants.delete(request.tenant, request.params.id);
    return reply.code(204).send();
  },
});
