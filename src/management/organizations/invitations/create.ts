import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../../route.js';
import { OrganizationIdParams } from '../schema.js';
import { CreateInvitationBody, InvitationResponse } from './schema.js';
import type { OrganizationInvitationService } from './service.js';

/** POST /api/v2/organizations/{id}/invitations → 200 (the document's status) with the invitation; the invitee is mailed its URL. */
export const createOrganizationInvitation: ManagementRouteFactory<OrganizationInvitationService> = (_ctx, invitations) => managementRoute({
  method: 'POST',
  url: '/organizations/:id/invitations',
  config: { scopes: ['create:organization_invitations'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], params: OrganizationIdParams, body: CreateInvitationBody, response: { 200: InvitationResponse } },
  handler: async (request) => invitations.create(request.tenant, request.params.id, request.body),
});
