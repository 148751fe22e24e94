import { managementRoute, type ManagementRouteFactory } from '../route.js';
import { TriggerListResponse } from './schema.js';
import type { ActionService } from './service.js';

/** GET /api/v2/actions/triggers: the triggers Gatehouse runs, each at its current version. */
export const listTriggers: ManagementRouteFactory<ActionService> = (_ctx, actions) => managementRoute({
  method: 'GET',
  url: '/actions/triggers',
  config: { scopes: ['read:actions'] },
  schema: { response: { 200: TriggerListResponse } },
  handler: async () => actions.triggers(),
});
