import { BODY_CONTENT_TYPES, formListAsArray, managementRoute, NoContent, type ManagementRouteFactory } from '../../route.js';
import { OrganizationIdParams } from '../schema.js';
import { MembersBody } from './schema.js';
import type { OrganizationMemberService } from './service.js';

/** POST /api/v2/organizations/{id}/members → 204: every listed user becomes a member, or none does. */
export const addOrganizationMembers: ManagementRouteFactory<OrganizationMemberService> = (_ctx, members) => managementRoute({
  method: 'POST',
  url: '/organizations/:id/members',
  config: { scopes: ['create:organization_members'] },
  schema: {
    consumes: [...BODY_CONTENT_TYPES],
    params: OrganizationIdParams,
    body: MembersBody('List of user IDs to add to the organization as members'),
    response: { 204: NoContent },
  },
  preValidation: formListAsArray('members'),
  handler: async (request, reply) => {
    await members.add(request.tenant, request.params.id, request.body.members);
    return reply.code(204).send();
  },
});
