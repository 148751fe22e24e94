import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../route.js';
import type { RoleService } from './service.js';
import { RoleResponse, UpdateRoleBody, roleIdParams } from './schema.js';

const Params = roleIdParams('ID of the role to update');

/** PATCH /api/v2/roles/{id} → 200 with the updated role */
export const updateRole: ManagementRouteFactory<RoleService> = (_ctx, roles) => managementRoute({
  method: 'PATCH',
  url: '/roles/:id',
  config: { scopes: ['update:roles'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], params: Params, body: UpdateRoleBody, response: { 200: RoleResponse } },
  handler: async (request) => roles.update(request.tenant, request.params.id, request.body),
});
