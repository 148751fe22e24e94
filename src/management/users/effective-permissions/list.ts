import { Type } from '@sinclair/typebox';
import { CheckpointQuery, checkpointListResponse } from '../../lists.js';
import { EffectivePermissionResponse } from '../../rbac/schema.js';
import type { UserAccessService } from '../../rbac/user-access.js';
import { managementRoute, type ManagementRouteFactory } from '../../route.js';
import { NO_CONTROL_CHARACTERS } from '../../strings.js';
import { userIdParams } from '../schema.js';

const Params = userIdParams('ID of the user to retrieve the permissions for');

/** The identifier of the API, as the document bounds it (1 to 600 characters). */
export const ResourceServerIdentifierQuery = Type.String({
  minLength: 1,
  maxLength: 600,
  pattern: NO_CONTROL_CHARACTERS,
  description: 'The identifier of the resource server for which to calculate user permissions',
});

const Query = Type.Object({ resource_server_identifier: ResourceServerIdentifierQuery, ...CheckpointQuery }, { additionalProperties: true });

/**
 * GET /api/v2/users/{id}/effective-permissions?resource_server_identifier= →
 * `{permissions, next?}`: every permission the user holds for the API, with
 * `sources` (`direct`, `roles`: the user's roles and the user's groups'
 * roles), by permission name (checkpoint paging, 50 by default).
 */
export const listEffectivePermissions: ManagementRouteFactory<UserAccessService> = (_ctx, rbac) => managementRoute({
  method: 'GET',
  url: '/users/:id/effective-permissions',
  config: { scopes: ['read:user_effective_permissions'] },
  schema: { params: Params, querystring: Query, response: { 200: checkpointListResponse('permissions', EffectivePermissionResponse) } },
  handler: async (request) => {
    const query = request.query;
    return rbac.listEffectivePermissions(request.tenant, request.params.id, query.resource_server_identifier, query);
  },
});
