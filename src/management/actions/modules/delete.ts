import { managementRoute, NoContent, type ManagementRouteFactory } from '../../route.js';
import { ModuleParams } from './schema.js';
import type { ActionModuleService } from './service.js';

/** DELETE /api/v2/actions/modules/{id} → 204; 412 while an action's draft or deployed version uses it. */
export const deleteActionModule: ManagementRouteFactory<ActionModuleService> = (_ctx, modules) => managementRoute({
  method: 'DELETE',
  url: '/actions/modules/:id',
  config: { scopes: ['delete:actions'] },
  schema: { params: ModuleParams, response: { 204: NoContent } },
  handler: async (request, reply) => {
    await modules.delete(request.tenant, request.params.id);
    return reply.code(204).send();
  },
});
