import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../../route.js';
import { ModuleParams, ModuleResponse, RollbackModuleBody } from './schema.js';
import type { ActionModuleService } from './service.js';

/** POST /api/v2/actions/modules/{id}/rollback: a published version's code, dependencies and secrets become the draft. */
export const rollbackActionModule: ManagementRouteFactory<ActionModuleService> = (_ctx, modules) => managementRoute({
  method: 'POST',
  url: '/actions/modules/:id/rollback',
  config: { scopes: ['update:actions'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], params: ModuleParams, body: RollbackModuleBody, response: { 200: ModuleResponse } },
  handler: async (request) => modules.rollback(request.tenant, request.params.id, request.body),
});
