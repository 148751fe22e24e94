import { managementRoute, NoContent, type ManagementRouteFactory } from '../route.js';
import { RefreshTokenIdParams } from './schema.js';
import type { RefreshTokenService } from './service.js';

/** DELETE /api/v2/refresh-tokens/{id} → 202: the token (and its family) refused from now on. */
export const deleteRefreshToken: ManagementRouteFactory<RefreshTokenService> = (_ctx, tokens) => managementRoute({
  method: 'DELETE',
  url: '/refresh-tokens/:id',
  config: { scopes: ['delete:refresh_tokens'] },
  schema: { params: RefreshTokenIdParams, response: { 202: NoContent } },
  handler: async (request, reply) => {
    await tokens.delete(request.tenant, request.params.id);
    return reply.code(202).send();
  },
});
