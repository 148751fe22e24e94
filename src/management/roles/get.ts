import { managementRoute, type ManagementRouteFactory } from '../route.js';
import type { RoleService } from './service.js';
import { RoleResponse, roleIdParams } from './schema.js';

const Params = roleIdParams('ID of the role to retrieve');

/** GET /api/v2/roles/{id} */
export const getRole: ManagementRouteFactory<RoleService> = (_ctx, roles) => managementRoute({
  method: 'GET',
  url: '/roles/:id',
  config: { scopes: ['read:roles'] },
  schema: { params: Params, response: { 200: RoleResponse } },
  handler: async (request) => roles.get(request.tenant, request.params.id),
});
