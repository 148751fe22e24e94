import { managementRoute, NoContent, type ManagementRouteFactory } from '../route.js';
import { DeleteByUserQuery } from './schema.js';
import type { ConsentGrantService } from './service.js';

/**
 * DELETE /api/v2/grants?user_id= → 204: revokes every grant of the user.
 * user_id is required; without it the query validation error is a 400.
 */
export const deleteUserGrantsByUserId: ManagementRouteFactory<ConsentGrantService> = (_ctx, grants) => managementRoute({
  method: 'DELETE',
  url: '/grants',
  config: { scopes: ['delete:grants'] },
  schema: { querystring: DeleteByUserQuery, response: { 204: NoContent } },
  handler: async (request, reply) => {
    await grants.deleteByUser(request.tenant, request.query.user_id);
    return reply.code(204).send();
  },
});
