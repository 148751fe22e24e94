import { BODY_CONTENT_TYPES, formListAsArray, managementRoute, NoContent, type ManagementRouteFactory } from '../../route.js';
import { OrganizationIdParams } from '../schema.js';
import { MembersBody } from './schema.js';
import type { OrganizationMemberService } from './service.js';

/** DELETE /api/v2/organizations/{id}/members → 204; users who are not members are skipped, members' roles go with them. */
export const removeOrganizationMembers: ManagementRouteFactory<OrganizationMemberService> = (_ctx, members) => managementRoute({
  method: 'DELETE',
  url: '/organizations/:id/members',
  config: { scopes: ['delete:organization_members'] },
  schema: {
    consumes: [...BODY_CONTENT_TYPES],
    params: OrganizationIdParams,
    body: MembersBody('List of user IDs to remove from the organization'),
    response: { 204: NoContent },
  },
  preValidation: formListAsArray('members'),
  handler: async (request, reply) => {
    await members.remove(request.tenant, request.params.id, request.body.members);
    return reply.code(204).send();
  },
});
