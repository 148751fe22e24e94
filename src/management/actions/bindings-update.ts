import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../route.js';
import { TriggerParams, UpdateBindingsBody, UpdatedBindingsResponse } from './schema.js';
import type { ActionService } from './service.js';

/** PATCH /api/v2/actions/triggers/{triggerId}/bindings: the list is replaced as a whole, in the body's order (`[]` clears it). */
export const updateBindings: ManagementRouteFactory<ActionService> = (_ctx, actions) => managementRoute({
  method: 'PATCH',
  url: '/actions/triggers/:triggerId/bindings',
  config: { scopes: ['update:actions'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], params: TriggerParams, body: UpdateBindingsBody, response: { 200: UpdatedBindingsResponse } },
  handler: async (request) => actions.updateBindings(request.tenant, request.params.triggerId, request.body),
});
