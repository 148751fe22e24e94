import { managementRoute, NoContent, type ManagementRouteFactory } from '../../route.js';
import { DiscoveryDomainParams } from './schema.js';
import type { OrganizationDiscoveryDomainService } from './service.js';

/** DELETE /api/v2/organizations/{id}/discovery-domains/{discovery_domain_id} → 204. */
export const deleteOrganizationDiscoveryDomain: ManagementRouteFactory<OrganizationDiscoveryDomainService> = (_ctx, domains) => managementRoute({
  method: 'DELETE',
  url: '/organizations/:id/discovery-domains/:discovery_domain_id',
  config: { scopes: ['delete:organization_discovery_domains'] },
  schema: { params: DiscoveryDomainParams, response: { 204: NoContent } },
  handler: async (request, reply) => {
    await domains.remove(request.tenant, request.params.id, request.params.discovery_domain_id);
    return reply.code(204).send();
  },
});
