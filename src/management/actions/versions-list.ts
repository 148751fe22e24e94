import { managementRoute, type ManagementRouteFactory } from '../route.js';
import { ActionIdParams, PageQuery, VersionListResponse } from './schema.js';
import type { ActionService } from './service.js';

/** GET /api/v2/actions/actions/{actionId}/versions: newest first. */
export const listActionVersions: ManagementRouteFactory<ActionService> = (_ctx, actions) => managementRoute({
  method: 'GET',
  url: '/actions/actions/:actionId/versions',
  config: { scopes: ['read:actions'] },
  schema: { params: ActionIdParams, querystring: PageQuery, response: { 200: VersionListResponse } },
  handler: async (request) => actions.versions(request.tenant, request.params.actionId, request.query),
});
