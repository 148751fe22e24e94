import { managementRoute, NoContent, type ManagementRouteFactory } from '../../route.js';
import { UserIdParams } from '../../sessions/schema.js';
import type { SessionService } from '../../sessions/service.js';

/** DELETE /api/v2/users/{user_id}/sessions → 202: every session of the user ends; their clients hear of it by back-channel logout. */
export const deleteUserSessions: ManagementRouteFactory<SessionService> = (_ctx, sessions) => managementRoute({
  method: 'DELETE',
  url: '/users/:user_id/sessions',
  config: { scopes: ['delete:sessions'] },
  schema: { params: UserIdParams, response: { 202: NoContent } },
  handler: async (request, reply) => {
    await sessions.deleteForUser(request.tenant, request.params.user_id);
    return reply.code(202).send();
  },
});
