import { BODY_CONTENT_TYPES, managementRoute, NoContent, type ManagementRouteFactory } from '../route.js';
import { RevokeBody } from './schema.js';
import type { RefreshTokenService } from './service.js';

/** POST /api/v2/refresh-tokens/revoke → 202: by ids, or a user's tokens (narrowed by client, then audience). */
export const revokeRefreshTokens: ManagementRouteFactory<RefreshTokenService> = (_ctx, tokens) => managementRoute({
  method: 'POST',
  url: '/refresh-tokens/revoke',
  config: { scopes: ['delete:refresh_tokens'] },
  schema: { body: RevokeBody, consumes: BODY_CONTENT_TYPES, response: { 202: NoContent } },
  handler: async (request, reply) => {
    await tokens.revoke(request.tenant, request.body);
    return reply.code(202).send();
  },
});
