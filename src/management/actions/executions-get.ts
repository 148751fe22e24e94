import { managementRoute, type ManagementRouteFactory } from '../route.js';
import { ExecutionParams, ExecutionResponse } from './schema.js';
import type { ActionService } from './service.js';

/** GET /api/v2/actions/executions/{id}: what a run of a trigger did, kept 10 days. */
export const getExecution: ManagementRouteFactory<ActionService> = (_ctx, actions) => managementRoute({
  method: 'GET',
  url: '/actions/executions/:id',
  config: { scopes: ['read:actions'] },
  schema: { params: ExecutionParams, response: { 200: ExecutionResponse } },
  handler: async (request) => actions.execution(request.tenant, request.params.id),
});
