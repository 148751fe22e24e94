import { managementRoute, NoContent, type ManagementRouteFactory } from '../route.js';
import { UserIdParams } from './schema.js';
import type { RefreshTokenService } from './service.js';

/** DELETE /api/v2/users/{user_id}/refresh-tokens → 202: every token of the user refused from now on. */
export const deleteUserRefreshTokens: ManagementRouteFactory<RefreshTokenService> = (_ctx, tokens) => managementRoute({
  method: 'DELETE',
  url: '/users/:user_id/refresh-tokens',
  config: { scopes: ['delete:refresh_tokens'] },
  schema: { params: UserIdParams, response: { 202: NoContent } },
  handler: async (request, reply) => {
    await tokens.deleteForUser(request.tenant, request.params.user_id);
    return reply.code(202).send();
  },
});
