import { managementRoute, type ManagementRouteFactory } from '../../route.js';
import { ModulePageQuery, ModuleParams, ModuleVersionListResponse } from './schema.js';
import type { ActionModuleService } from './service.js';

/** GET /api/v2/actions/modules/{id}/versions: the published versions, newest first. */
export const listActionModuleVersions: ManagementRouteFactory<ActionModuleService> = (_ctx, modules) => managementRoute({
  method: 'GET',
  url: '/actions/modules/:id/versions',
  config: { scopes: ['read:actions'] },
  schema: { params: ModuleParams, querystring: ModulePageQuery, response: { 200: ModuleVersionListResponse } },
  handler: async (request) => modules.versions(request.tenant, request.params.id, request.query),
});
