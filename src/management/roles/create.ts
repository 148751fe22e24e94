import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../route.js';
import type { RoleService } from './service.js';
import { CreateRoleBody, RoleResponse } from './schema.js';

/** POST /api/v2/roles → 200 with the role (the service answers 200, not 201, here). */
export const createRole: ManagementRouteFactory<RoleService> = (_ctx, roles) => managementRoute({
  method: 'POST',
  url: '/roles',
  config: { scopes: ['create:roles'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], body: CreateRoleBody, response: { 200: RoleResponse } },
  handler: async (request) => roles.create(request.tenant, request.body),
});
