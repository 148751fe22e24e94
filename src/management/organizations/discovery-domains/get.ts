import { managementRoute, type ManagementRouteFactory } from '../../route.js';
import { DiscoveryDomainParams, DiscoveryDomainResponse } from './schema.js';
import type { OrganizationDiscoveryDomainService } from './service.js';

/** GET /api/v2/organizations/{id}/discovery-domains/{discovery_domain_id} */
export const getOrganizationDiscoveryDomain: ManagementRouteFactory<OrganizationDiscoveryDomainService> = (_ctx, domains) => managementRoute({
  method: 'GET',
  url: '/organizations/:id/discovery-domains/:discovery_domain_id',
  config: { scopes: ['read:organization_discovery_domains'] },
  schema: { params: DiscoveryDomainParams, response: { 200: DiscoveryDomainResponse } },
  handler: async (request) => domains.get(request.tenant, request.params.id, request.params.discovery_domain_id),
});
