import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../route.js';
import { CreateGroupBody, GroupResponse } from './schema.js';
import type { GroupService } from './service.js';

/**
 * POST /api/v2/groups → 201 with the group. A Gatehouse extension: the service
 * has no such operation (its groups come from directory connections and
 * organizations), so Gatehouse offers tenant groups to give
 * /groups/{id}/roles something to work on.
 *
 * Scope: `create:groups`, which Gatehouse adds to the service's scope list for
 * this operation (the `*:group_roles` scopes govern assignments only).
 */
export const createGroup: ManagementRouteFactory<GroupService> = (_ctx, groups) => managementRoute({
  method: 'POST',
  url: '/groups',
  config: { scopes: ['create:groups'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], body: CreateGroupBody, response: { 201: GroupResponse } },
  handler: async (request, reply) => {
    const created = await groups.create(request.tenant, request.body);
    return reply.code(201).send(created);
  },
});
