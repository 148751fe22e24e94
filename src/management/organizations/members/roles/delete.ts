import { BODY_CONTENT_TYPES, formListAsArray, managementRoute, NoContent, type ManagementRouteFactory } from '../../../route.js';
import { MemberParams, MemberRolesBody } from '../schema.js';
import type { OrganizationMemberService } from '../service.js';

/** DELETE /api/v2/organizations/{id}/members/{user_id}/roles → 204; roles the member does not hold are skipped. */
export const removeOrganizationMemberRoles: ManagementRouteFactory<OrganizationMemberService> = (_ctx, members) => managementRoute({
  method: 'DELETE',
  url: '/organizations/:id/members/:user_id/roles',
  config: { scopes: ['delete:organization_member_roles'] },
  schema: {
    consumes: [...BODY_CONTENT_TYPES],
    params: MemberParams,
    body: MemberRolesBody('List of roles IDs associated with the organization member to remove'),
    response: { 204: NoContent },
  },
  preValidation: formListAsArray('roles'),
  handler: async (request, reply) => {
    await members.removeRoles(request.tenant, request.params.id, request.params.user_id, request.body.roles);
    return reply.code(204).send();
  },
});
