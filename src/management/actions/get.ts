import { managementRoute, type ManagementRouteFactory } from '../route.js';
import { ActionParams, ActionResponse } from './schema.js';
import type { ActionService } from './service.js';

/** GET /api/v2/actions/actions/{id}: the draft, its build status and the deployed version. */
export const getAction: ManagementRouteFactory<ActionService> = (_ctx, actions) => managementRoute({
  method: 'GET',
  url: '/actions/actions/:id',
  config: { scopes: ['read:actions'] },
  schema: { params: ActionParams, response: { 200: ActionResponse } },
  handler: async (request) => actions.get(request.tenant, request.params.id),
});
