import { Type } from '@sinclair/typebox';
import { managementRoute, type ManagementRouteFactory } from '../route.js';
import type { RoleService } from './service.js';
import { roleIdParams } from './schema.js';

const Params = roleIdParams('ID of the role to delete');

/**
 * DELETE /api/v2/roles/{id} → 200 `{}` (as recorded from the service, go-auth0
 * TestRoleManager_Delete); the role's permissions and its user and group
 * assignments go with it, in the same transaction.
 */
export const deleteRole: ManagementRouteFactory<RoleService> = (_ctx, roles) => managementRoute({
  method: 'DELETE',
  url: '/roles/:id',
  config: { scopes: ['delete:roles'] },
  schema: { params: Params, response: { 200: Type.Object({}, { additionalProperties: false }) } },
  handler: async (request) => {
    await roles.delete(request.tenant, request.params.id);
    return {};
  },
});
