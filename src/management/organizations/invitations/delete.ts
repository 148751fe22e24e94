import { managementRoute, NoContent, type ManagementRouteFactory } from '../../route.js';
import { InvitationParams } from './schema.js';
import type { OrganizationInvitationService } from './service.js';

/** DELETE /api/v2/organizations/{id}/invitations/{invitation_id} → 204; its link stops working. */
export const deleteOrganizationInvitation: ManagementRouteFactory<OrganizationInvitationService> = (_ctx, invitations) => managementRoute({
  method: 'DELETE',
  url: '/organizations/:id/invitations/:invitation_id',
  config: { scopes: ['delete:organization_invitations'] },
  schema: { params: InvitationParams, response: { 204: NoContent } },
  handler: async (request, reply) => {
    await invitations.delete(request.tenant, request.params.id, request.params.invitation_id);
    return reply.code(204).send();
  },
});
