import { Type } from '@sinclair/typebox';
import { CheckpointQuery, checkpointListResponse } from '../../lists.js';
import { RoleWithSourcesResponse } from '../../rbac/schema.js';
import type { UserAccessService } from '../../rbac/user-access.js';
import { managementRoute, type ManagementRouteFactory } from '../../route.js';
import { userIdParams } from '../schema.js';

const Params = userIdParams('ID of the user to list effective roles for');
const Query = Type.Object(CheckpointQuery, { additionalProperties: true });

/** GET /api/v2/users/{id}/effective-roles → `{roles, next?}`: roles held directly or through groups, with `sources`, by role id. */
export const listEffectiveRoles: ManagementRouteFactory<UserAccessService> = (_ctx, rbac) => managementRoute({
  method: 'GET',
  url: '/users/:id/effective-roles',
  config: { scopes: ['read:user_effective_roles'] },
  schema: { params: Params, querystring: Query, response: { 200: checkpointListResponse('roles', RoleWithSourcesResponse) } },
  handler: async (request) => rbac.listEffectiveRoles(request.tenant, request.params.id, request.query),
});
