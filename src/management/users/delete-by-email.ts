import { Type } from '@sinclair/typebox';
import { managementRoute, NoContent, type ManagementRouteFactory } from '../route.js';
import type { UserService } from './service.js';

const Params = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64, description: 'The id of the connection (currently only database connections are supported)' }) });
const Query = Type.Object(
  { email: Type.String({ format: 'email', maxLength: 512, description: 'The email of the user to delete' }) },
  { additionalProperties: true },
);

/**
 * DELETE /api/v2/connections/{id}/users?email= → 204: the database
 * connection's user with that email, deleted as DELETE /users/{id} deletes
 * (sessions ended first); 204 also when there is none. 400 for a connection
 * that is not a database connection, 404 for an unknown one.
 */
export const deleteConnectionUserByEmail: ManagementRouteFactory<UserService> = (_ctx, users) => managementRoute({
  method: 'DELETE',
  url: '/connections/:id/users',
  config: { scopes: ['delete:users'] },
  schema: { params: Params, querystring: Query, response: { 204: NoContent } },
  handler: async (request, reply) => {
    await users.deleteByEmail(request.tenant, request.params.id, request.query.email);
    return reply.code(204).send();
  },
});
