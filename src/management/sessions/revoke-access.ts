import { BODY_CONTENT_TYPES, managementRoute, NoContent, type ManagementRouteFactory } from '../route.js';
import { RevokeAccessBody, RevokeAccessParams } from './schema.js';
import type { SessionService } from './service.js';

/** POST /api/v2/users/{id}/revoke-access → 202: the user's sessions (or one) end, with their refresh tokens unless preserved. */
export const revokeUserAccess: ManagementRouteFactory<SessionService> = (_ctx, sessions) => managementRoute({
  method: 'POST',
  url: '/users/:id/revoke-access',
  config: { scopes: ['delete:sessions', 'delete:refresh_tokens'] },
  schema: { params: RevokeAccessParams, body: RevokeAccessBody, consumes: BODY_CONTENT_TYPES, response: { 202: NoContent } },
  handler: async (request, reply) => {
    await sessions.revokeAccess(request.tenant, request.params.id, request.body ?? {});
    return reply.code(202).send();
  },
});
