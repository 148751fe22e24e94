import { managementRoute, NoContent, type ManagementRouteFactory } from '../route.js';
import { SessionIdParams } from './schema.js';
import type { SessionService } from './service.js';

/** DELETE /api/v2/sessions/{id} → 202: the session ends; its clients hear of it by back-channel logout. */
export const deleteSession: ManagementRouteFactory<SessionService> = (_ctx, sessions) => managementRoute({
  method: 'DELETE',
  url: '/sessions/:id',
  config: { scopes: ['delete:sessions'] },
  schema: { params: SessionIdParams, response: { 202: NoContent } },
  handler: async (request, reply) => {
    await sessions.delete(request.tenant, request.params.id);
    return reply.code(202).send();
  },
});
