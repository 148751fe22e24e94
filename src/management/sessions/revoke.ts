import { managementRoute, NoContent, type ManagementRouteFactory } from '../route.js';
import { RevokeSessionParams } from './schema.js';
import type { SessionService } from './service.js';

/**
 * POST /api/v2/sessions/{id}/revoke → 202: the session ends with the refresh
 * tokens it started; its clients hear of it by back-channel logout. The
 * document accepts either scope.
 */
export const revokeSession: ManagementRouteFactory<SessionService> = (_ctx, sessions) => managementRoute({
  method: 'POST',
  url: '/sessions/:id/revoke',
  config: { scopes: ['delete:sessions', 'delete:refresh_tokens'] },
  schema: { params: RevokeSessionParams, response: { 202: NoContent } },
  handler: async (request, reply) => {
    await sessions.revoke(request.tenant, request.params.id);
    return reply.code(202).send();
  },
});
