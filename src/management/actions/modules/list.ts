import { managementRoute, type ManagementRouteFactory } from '../../route.js';
import { ModuleListResponse, ModulePageQuery } from './schema.js';
import type { ActionModuleService } from './service.js';

/** GET /api/v2/actions/modules: the tenant's modules; paged only when `page` or `per_page` is sent. */
export const listActionModules: ManagementRouteFactory<ActionModuleService> = (_ctx, modules) => managementRoute({
  method: 'GET',
  url: '/actions/modules',
  config: { scopes: ['read:actions'] },
  schema: { querystring: ModulePageQuery, response: { 200: ModuleListResponse } },
  handler: async (request) => modules.list(request.tenant, request.query),
});
