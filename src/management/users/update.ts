import type { ManagementPrincipal } from '../auth.js';
import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../route.js';
import type { UserService, UserUpdateAccess } from './service.js';
import { UpdateUserBody, UserResponse, userIdParams } from './schema.js';

const Params = userIdParams('ID of the user to update');

/** What the principal's scopes let it change. */
function updateAccess(principal: ManagementPrincipal): UserUpdateAccess {
  if (principal.scopes.has('update:users')) return { kind: 'all' };
  if (principal.scopes.has('update:users_app_metadata')) return { kind: 'metadata' };
  return {
    kind: 'current_user',
    create: principal.scopes.has('create:current_user_metadata'),
    update: principal.scopes.has('update:current_user_metadata'),
    delete: principal.scopes.has('delete:current_user_metadata'),
  };
}

/**
 * PATCH /api/v2/users/{id} → 200 with the updated user. `update:users_app_metadata`
 * alone may change app_metadata and user_metadata only; an end user's token
 * only its own user_metadata, as its `*:current_user_metadata` scopes allow.
 */
export const updateUser: ManagementRouteFactory<UserService> = (_ctx, users) => managementRoute({
  method: 'PATCH',
  url: '/users/:id',
  config: {
    scopes: ['update:users', 'update:users_app_metadata', 'update:current_user_metadata', 'create:current_user_metadata', 'delete:current_user_metadata'],
    currentUser: true,
  },
  schema: { consumes: [...BODY_CONTENT_TYPES], params: Params, body: UpdateUserBody, response: { 200: UserResponse } },
  handler: async (request) =>
    users.update(
      request.tenant,
      request.params.id,
      request.body,
      updateAccess(request.principal!),
    ),
});
