import { managementRoute, type ManagementRouteFactory } from '../route.js';
import { ActionParams, ActionVersionResponse } from './schema.js';
import type { ActionService } from './service.js';

/**
 * POST /api/v2/actions/actions/{id}/deploy → 200 (the document says 202; real
 * traffic answers 200) with the new version; 400 "A draft must be in the
 * 'built' state before it can be deployed." while the build is pending or failed.
 */
export const deployAction: ManagementRouteFactory<ActionService> = (_ctx, actions) => managementRoute({
  method: 'POST',
  url: '/actions/actions/:id/deploy',
  config: { scopes: ['create:actions'] },
  schema: { params: ActionParams, response: { 200: ActionVersionResponse } },
  handler: async (request) => actions.deploy(request.tenant, request.params.id),
});
