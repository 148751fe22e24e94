import { managementRoute, type ManagementRouteFactory } from '../../route.js';
import { DiscoveryDomainNameParams, DiscoveryDomainResponse } from './schema.js';
import type { OrganizationDiscoveryDomainService } from './service.js';

/** GET /api/v2/organizations/{id}/discovery-domains/name/{discovery_domain} (the name in any case). */
export const getOrganizationDiscoveryDomainByName: ManagementRouteFactory<OrganizationDiscoveryDomainService> = (_ctx, domains) => managementRoute({
  method: 'GET',
  url: '/organizations/:id/discovery-domains/name/:discovery_domain',
  config: { scopes: ['read:organization_discovery_domains'] },
  schema: { params: DiscoveryDomainNameParams, response: { 200: DiscoveryDomainResponse } },
  handler: async (request) => domains.getByName(request.tenant, request.params.id, request.params.discovery_domain),
});
