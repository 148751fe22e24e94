import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../../route.js';
import { CreateModuleBody, ModuleResponse } from './schema.js';
import type { ActionModuleService } from './service.js';

/** POST /api/v2/actions/modules → 201: a new module's draft (with `publish: true`, its version 1 too). */
export const createActionModule: ManagementRouteFactory<ActionModuleService> = (_ctx, modules) => managementRoute({
  method: 'POST',
  url: '/actions/modules',
  config: { scopes: ['create:actions'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], body: CreateModuleBody, response: { 201: ModuleResponse } },
  handler: async (request, reply) => reply.code(201).send(await modules.create(request.tenant, request.body)),
});
