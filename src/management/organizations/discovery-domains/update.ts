import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../../route.js';
import { DiscoveryDomainParams, DiscoveryDomainResponse, UpdateDiscoveryDomainBody } from './schema.js';
import type { OrganizationDiscoveryDomainService } from './service.js';

/** PATCH /api/v2/organizations/{id}/discovery-domains/{discovery_domain_id}: `status`, `use_for_organization_discovery`. */
export const updateOrganizationDiscoveryDomain: ManagementRouteFactory<OrganizationDiscoveryDomainService> = (_ctx, domains) => managementRoute({
  method: 'PATCH',
  url: '/organizations/:id/discovery-domains/:discovery_domain_id',
  config: { scopes: ['update:organization_discovery_domains'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], params: DiscoveryDomainParams, body: UpdateDiscoveryDomainBody, response: { 200: DiscoveryDomainResponse } },
  handler: async (request) => domains.update(request.tenant, request.params.id, request.params.discovery_domain_id, request.body),
});
