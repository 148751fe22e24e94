import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../../route.js';
import { ModuleParams, ModuleResponse, UpdateModuleBody } from './schema.js';
import type { ActionModuleService } from './service.js';

/** PATCH /api/v2/actions/modules/{id}: changes the draft only (secrets and dependencies replaced as wholes). */
export const updateActionModule: ManagementRouteFactory<ActionModuleService> = (_ctx, modules) => managementRoute({
  method: 'PATCH',
  url: '/actions/modules/:id',
  config: { scopes: ['update:actions'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], params: ModuleParams, body: UpdateModuleBody, response: { 200: ModuleResponse } },
  handler: async (request) => modules.update(request.tenant, request.params.id, request.body),
});
