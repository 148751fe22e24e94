import { managementRoute, type ManagementRouteFactory } from '../route.js';
import { ActionListResponse, ListActionsQuery } from './schema.js';
import type { ActionService } from './service.js';

/** GET /api/v2/actions/actions: by creation; filters `triggerId`, `actionName`, `deployed`, `installed`; `{actions, total, page, per_page}` (zeros left out). */
export const listActions: ManagementRouteFactory<ActionService> = (_ctx, actions) => managementRoute({
  method: 'GET',
  url: '/actions/actions',
  config: { scopes: ['read:actions'] },
  schema: { querystring: ListActionsQuery, response: { 200: ActionListResponse } },
  handler: async (request) => actions.list(request.tenant, request.query),
});
