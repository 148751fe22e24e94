import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../route.js';
import { ActionVersionResponse, DeployVersionBody, VersionParams } from './schema.js';
import type { ActionService } from './service.js';

/** POST /api/v2/actions/actions/{actionId}/versions/{id}/deploy → 200: rollback, a new version copied from `id`; `update_draft` makes it the draft too. */
export const deployActionVersion: ManagementRouteFactory<ActionService> = (_ctx, actions) => managementRoute({
  method: 'POST',
  url: '/actions/actions/:actionId/versions/:id/deploy',
  config: { scopes: ['create:actions'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], params: VersionParams, body: DeployVersionBody, response: { 200: ActionVersionResponse } },
  handler: async (request) => actions.deployVersion(request.tenant, request.params.actionId, request.params.id, request.body ?? null),
});
