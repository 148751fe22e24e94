import { managementRoute, NoContent, type ManagementRouteFactory } from '../route.js';
import type { UserService } from './service.js';
import { userIdParams } from './schema.js';

const Params = userIdParams('ID of the user to delete');

/** DELETE /api/v2/users/{id} → 204, also for an unknown id (the document declares no 404 here). */
export const deleteUser: ManagementRouteFactory<UserService> = (_ctx, users) => managementRoute({
  method: 'DELETE',
  url: '/users/:id',
  config: { scopes: ['delete:users'] },
  schema: { params: Params, response: { 204: NoContent } },
  handler: async (request, reply) => {
    await users.delete(request.tenant, request.params.id);
    return reply.code(204).send();
  },
});
