import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../../route.js';
import { AssociateClientGrantBody, OrganizationClientGrantResponse, OrganizationIdParams } from './schema.js';
import type { OrganizationClientGrantService } from './service.js';

/** POST /api/v2/organizations/{id}/client-grants → 201 with the grant */
export const createOrganizationClientGrant: ManagementRouteFactory<OrganizationClientGrantService> = (_ctx, clientGrants) => managementRoute({
  method: 'POST',
  url: '/organizations/:id/client-grants',
  config: { scopes: ['create:organization_client_grants'] },
  schema: {
    consumes: [...BODY_CONTENT_TYPES],
    params: OrganizationIdParams,
    body: AssociateClientGrantBody,
    response: { 201: OrganizationClientGrantResponse },
  },
  handler: async (request, reply) => {
    const { id } = request.params;
    const { grant_id } = request.body;
    return reply.code(201).send(await clientGrants.associate(request.tenant, id, grant_id));
  },
});
