import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../route.js';
import { ActionParams, ActionResponse, UpdateActionBody } from './schema.js';
import type { ActionService } from './service.js';

/** PATCH /api/v2/actions/actions/{id}: the draft only (triggers run the deployed version); `secrets` replaces the whole set. */
export const updateAction: ManagementRouteFactory<ActionService> = (_ctx, actions) => managementRoute({
  method: 'PATCH',
  url: '/actions/actions/:id',
  config: { scopes: ['update:actions'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], params: ActionParams, body: UpdateActionBody, response: { 200: ActionResponse } },
  handler: async (request) => actions.update(request.tenant, request.params.id, request.body),
});
