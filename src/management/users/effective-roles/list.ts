import { Type, type Static } from '@sinclair/typebox';
import { CheckpointQuery, checkpointListResponse } from '../../lists.js';
import { RoleWithSourcesResponse } from '../../rbac/schema.js';
import type { RbacService } from '../../rbac/service.js';
import type { ManagementRouteFactory } from '../../route.js';
import { userIdParams, type UserIdParams } from '../schema.js';

const Params = userIdParams('ID of the user to list effective roles for');
const Query = Type.Object(CheckpointQuery, { additionalProperties: true });

/** GET /api/v2/users/{id}/effective-roles → `{roles, next?}`: roles held directly or through groups, with `sources`, by role id. */
export const listEffectiveRoles: ManagementRouteFactory<RbacService> = (_ctx, rbac) => ({
  method: 'GET',
  url: '/users/:id/effective-roles',
  config: { scopes: ['read:user_effective_roles'] },
  schema: { params: Params, querystring: Query, response: { 200: checkpointListResponse('roles', RoleWithSourcesResponse) } },
  handler: async (request) => rbac.listEffectiveRoles(request.tenant, (request.params as UserIdParams).id, request.query as Static<typeof Query>),
});
