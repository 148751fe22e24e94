import { managementRoute, type ManagementRouteFactory } from '../../route.js';
import { Type } from '@sinclair/typebox';
import { TicketParams } from '../schema.js';
import type { SelfServiceProfileService } from '../service.js';

/** POST /api/v2/self-service-profiles/{profileId}/sso-ticket/{id}/revoke → 202: `{id}` is the ticket of the link. */
export const revokeSsoTicket: ManagementRouteFactory<SelfServiceProfileService> = (_ctx, profiles) => managementRoute({
  method: 'POST',
  url: '/self-service-profiles/:profileId/sso-ticket/:id/revoke',
  config: { scopes: ['delete:sso_access_tickets'] },
  schema: { params: TicketParams, response: { 202: Type.Object({}, { additionalProperties: false }) } },
  handler: async (request, reply) => {
    await profiles.revokeTicket(request.tenant, request.params.profileId, request.params.id);
    return reply.code(202).send({});
  },
});
