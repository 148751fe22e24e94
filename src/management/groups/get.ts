import { managementRoute, type ManagementRouteFactory } from '../route.js';
import { GroupIdParams, GroupResponse } from './schema.js';
import type { GroupService } from './service.js';

/** GET /api/v2/groups/{id} */
export const getGroup: ManagementRouteFactory<GroupService> = (_ctx, groups) => managementRoute({
  method: 'GET',
  url: '/groups/:id',
  config: { scopes: ['read:groups'] },
  schema: { params: GroupIdParams, response: { 200: GroupResponse } },
  handler: async (request) => groups.get(request.tenant, request.params.id),
});
