import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../route.js';
import type { UserService } from './service.js';
import { CreateUserBody, UserResponse } from './schema.js';

/** POST /api/v2/users → 201 with the user (never its password or hash). */
export const createUser: ManagementRouteFactory<UserService> = (_ctx, users) => managementRoute({
  method: 'POST',
  url: '/users',
  config: { scopes: ['create:users'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], body: CreateUserBody, response: { 201: UserResponse } },
  handler: async (request, reply) => {
    const user = await users.create(request.tenant, request.body);
    return reply.code(201).send(user);
  },
});
