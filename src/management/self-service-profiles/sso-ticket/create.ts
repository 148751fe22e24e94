import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../../route.js';
import { ProfileIdParams, SsoTicketBody, SsoTicketResponse } from '../schema.js';
import type { SelfServiceProfileService } from '../service.js';

/** POST /api/v2/self-service-profiles/{id}/sso-ticket → 201 `{ticket}`: the link, shown only here. */
export const createSsoTicket: ManagementRouteFactory<SelfServiceProfileService> = (_ctx, profiles) => managementRoute({
  method: 'POST',
  url: '/self-service-profiles/:id/sso-ticket',
  config: { scopes: ['create:sso_access_tickets'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], params: ProfileIdParams, body: SsoTicketBody, response: { 201: SsoTicketResponse } },
  handler: async (request, reply) => reply.code(201).send(await profiles.createTicket(request.tenant, request.params.id, request.body)),
});
