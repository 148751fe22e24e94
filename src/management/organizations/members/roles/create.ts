import { BODY_CONTENT_TYPES, formListAsArray, managementRoute, NoContent, type ManagementRouteFactory } from '../../../route.js';
import { MemberParams, MemberRolesBody } from '../schema.js';
import type { OrganizationMemberService } from '../service.js';

/** POST /api/v2/organizations/{id}/members/{user_id}/roles → 204: every role must exist, all or none; only members hold roles. */
export const assignOrganizationMemberRoles: ManagementRouteFactory<OrganizationMemberService> = (_ctx, members) => managementRoute({
  method: 'POST',
  url: '/organizations/:id/members/:user_id/roles',
  config: { scopes: ['create:organization_member_roles'] },
  schema: {
    consumes: [...BODY_CONTENT_TYPES],
    params: MemberParams,
    body: MemberRolesBody('List of roles IDs to associated with the user'),
    response: { 204: NoContent },
  },
  preValidation: formListAsArray('roles'),
  handler: async (request, reply) => {
    await members.assignRoles(request.tenant, request.params.id, request.params.user_id, request.body.roles);
    return reply.code(204).send();
  },
});
