import { Type } from '@sinclair/typebox';
import { fieldSelection, FieldsQuery } from '../../fields.js';
import { managementRoute, type ManagementRouteFactory } from '../../route.js';
import { InvitationParams, InvitationResponse } from './schema.js';
import type { OrganizationInvitationService } from './service.js';

const Query = Type.Object(FieldsQuery, { additionalProperties: true });

/** GET /api/v2/organizations/{id}/invitations/{invitation_id} */
export const getOrganizationInvitation: ManagementRouteFactory<OrganizationInvitationService> = (_ctx, invitations) => managementRoute({
  method: 'GET',
  url: '/organizations/:id/invitations/:invitation_id',
  config: { scopes: ['read:organization_invitations'] },
  schema: { params: InvitationParams, querystring: Query, response: { 200: InvitationResponse } },
  handler: async (request) => invitations.get(request.tenant, request.params.id, request.params.invitation_id, fieldSelection(request.query)),
});
