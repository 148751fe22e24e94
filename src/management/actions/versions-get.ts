import { managementRoute, type ManagementRouteFactory } from '../route.js';
import { ActionVersionResponse, VersionParams } from './schema.js';
import type { ActionService } from './service.js';

/** GET /api/v2/actions/actions/{actionId}/versions/{id} */
export const getActionVersion: ManagementRouteFactory<ActionService> = (_ctx, actions) => managementRoute({
  method: 'GET',
  url: '/actions/actions/:actionId/versions/:id',
  config: { scopes: ['read:actions'] },
  schema: { params: VersionParams, response: { 200: ActionVersionResponse } },
  handler: async (request) => actions.version(request.tenant, request.params.actionId, request.params.id),
});
