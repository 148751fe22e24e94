import { managementRoute, type ManagementRouteFactory } from '../../route.js';
import { ModuleParams, ModuleVersionResponse } from './schema.js';
import type { ActionModuleService } from './service.js';

/** POST /api/v2/actions/modules/{id}/versions → 200: publishes the draft as the next immutable version. */
export const createActionModuleVersion: ManagementRouteFactory<ActionModuleService> = (_ctx, modules) => managementRoute({
  method: 'POST',
  url: '/actions/modules/:id/versions',
  config: { scopes: ['update:actions'] },
  schema: { params: ModuleParams, response: { 200: ModuleVersionResponse } },
  handler: async (request) => modules.publish(request.tenant, request.params.id),
});
