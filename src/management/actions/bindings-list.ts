import { managementRoute, type ManagementRouteFactory } from '../route.js';
import { BindingListResponse, PageQuery, TriggerParams } from './schema.js';
import type { ActionService } from './service.js';

/** GET /api/v2/actions/triggers/{triggerId}/bindings: in execution order. */
export const listBindings: ManagementRouteFactory<ActionService> = (_ctx, actions) => managementRoute({
  method: 'GET',
  url: '/actions/triggers/:triggerId/bindings',
  config: { scopes: ['read:actions'] },
  schema: { params: TriggerParams, querystring: PageQuery, response: { 200: BindingListResponse } },
  handler: async (request) => actions.bindings(request.tenant, request.params.triggerId, request.query),
});
