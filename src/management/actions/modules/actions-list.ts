import { managementRoute, type ManagementRouteFactory } from '../../route.js';
import { ModuleActionsResponse, ModulePageQuery, ModuleParams } from './schema.js';
import type { ActionModuleService } from './service.js';

/** GET /api/v2/actions/modules/{id}/actions: the actions whose deployed version uses the module. */
export const listActionModuleActions: ManagementRouteFactory<ActionModuleService> = (_ctx, modules) => managementRoute({
  method: 'GET',
  url: '/actions/modules/:id/actions',
  config: { scopes: ['read:actions'] },
  schema: { params: ModuleParams, querystring: ModulePageQuery, response: { 200: ModuleActionsResponse } },
  handler: async (request) => modules.actions(request.tenant, request.params.id, request.query),
});
