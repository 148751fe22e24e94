import { managementRoute, type ManagementRouteFactory } from '../route.js';
import type { UserService } from './service.js';
import { UserResponse, userIdParams } from './schema.js';

const Params = userIdParams('ID of the user to retrieve');

/**
 * GET /api/v2/users/{id} (`fields`/`include_fields` are not supported yet and are ignored).
 * An end user's token with `read:current_user` reads its own user.
 */
export const getUser: ManagementRouteFactory<UserService> = (_ctx, users) => managementRoute({
  method: 'GET',
  url: '/users/:id',
  config: { scopes: ['read:users', 'read:current_user'], currentUser: true },
  schema: { params: Params, response: { 200: UserResponse } },
  handler: async (request) => users.get(request.tenant, request.params.id),
});
