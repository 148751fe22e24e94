import { managementRoute, type ManagementRouteFactory } from '../../route.js';
import { ModuleVersionParams, ModuleVersionResponse } from './schema.js';
import type { ActionModuleService } from './service.js';

/** GET /api/v2/actions/modules/{id}/versions/{versionId}: one published version. */
export const getActionModuleVersion: ManagementRouteFactory<ActionModuleService> = (_ctx, modules) => managementRoute({
  method: 'GET',
  url: '/actions/modules/:id/versions/:versionId',
  config: { scopes: ['read:actions'] },
  schema: { params: ModuleVersionParams, response: { 200: ModuleVersionResponse } },
  handler: async (request) => modules.version(request.tenant, request.params.id, request.params.versionId),
});
