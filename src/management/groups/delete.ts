import { managementRoute, NoContent, type ManagementRouteFactory } from '../route.js';
import { GroupIdParams } from './schema.js';
import type { GroupService } from './service.js';

/** DELETE /api/v2/groups/{id} → 204; its members and role assignments go with it, in the same transaction. */
export const deleteGroup: ManagementRouteFactory<GroupService> = (_ctx, groups) => managementRoute({
  method: 'DELETE',
  url: '/groups/:id',
  config: { scopes: ['delete:groups'] },
  schema: { params: GroupIdParams, response: { 204: NoContent } },
  handler: async (request, reply) => {
    await groups.delete(request.tenant, request.params.id);
    return reply.code(204).send();
  },
});
