import { BODY_CONTENT_TYPES, type ManagementRouteFactory } from '../route.js';
import type { UserService } from './service.js';
import { UpdateUserBody, UserResponse, userIdParams, type UserIdParams } from './schema.js';

const Params = userIdParams('ID of the user to update');

/**
 * PATCH /api/v2/users/{id} → 200 with the updated user. `update:users_app_metadata`
 * alone may change app_metadata and user_metadata only.
 */
export const updateUser: ManagementRouteFactory<UserService> = (_ctx, users) => ({
  method: 'PATCH',
  url: '/users/:id',
  config: { scopes: ['update:users', 'update:users_app_metadata'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], params: Params, body: UpdateUserBody, response: { 200: UserResponse } },
  handler: async (request) =>
    users.update(
      request.tenant,
      (request.params as UserIdParams).id,
      request.body as UpdateUserBody,
      request.principal?.scopes.has('update:users') === true,
    ),
});
