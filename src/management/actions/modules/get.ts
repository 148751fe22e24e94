import { managementRoute, type ManagementRouteFactory } from '../../route.js';
import { ModuleParams, ModuleResponse } from './schema.js';
import type { ActionModuleService } from './service.js';

/** GET /api/v2/actions/modules/{id}: the module's draft and its latest published version. */
export const getActionModule: ManagementRouteFactory<ActionModuleService> = (_ctx, modules) => managementRoute({
  method: 'GET',
  url: '/actions/modules/:id',
  config: { scopes: ['read:actions'] },
  schema: { params: ModuleParams, response: { 200: ModuleResponse } },
  handler: async (request) => modules.get(request.tenant, request.params.id),
});
