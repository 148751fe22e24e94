import { Type } from '@sinclair/typebox';
import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../../route.js';
import { RolePermissionsBody } from '../../rbac/schema.js';
import type { RoleAccessService } from '../../rbac/role-access.js';
import { roleIdParams } from '../schema.js';

const Params = roleIdParams('ID of the role to add permissions to');

/**
 * POST /api/v2/roles/{id}/permissions → 201 `{}` (recorded, go-auth0
 * TestRoleManager_Permissions). Every permission must name an API of the
 * tenant and one of its scopes; all are added or none (RoleAccessService).
 */
export const addRolePermissions: ManagementRouteFactory<RoleAccessService> = (_ctx, rbac) => managementRoute({
  method: 'POST',
  url: '/roles/:id/permissions',
  config: { scopes: ['update:roles'] },
  schema: {
    consumes: [...BODY_CONTENT_TYPES],
    params: Params,
    body: RolePermissionsBody,
    response: { 201: Type.Object({}, { additionalProperties: false }) },
  },
  handler: async (request, reply) => {
    await rbac.addRolePermissions(request.tenant, request.params.id, request.body.permissions);
    return reply.code(201).send({});
  },
});
