import { managementRoute, type ManagementRouteFactory } from '../../route.js';
import { OrganizationIdParams } from '../schema.js';
import { DiscoveryDomainListQuery, DiscoveryDomainListResponse } from './schema.js';
import type { OrganizationDiscoveryDomainService } from './service.js';

/** GET /api/v2/organizations/{id}/discovery-domains → `{domains, next?}`, checkpoint paging by id. */
export const listOrganizationDiscoveryDomains: ManagementRouteFactory<OrganizationDiscoveryDomainService> = (_ctx, domains) => managementRoute({
  method: 'GET',
  url: '/organizations/:id/discovery-domains',
  config: { scopes: ['read:organization_discovery_domains'] },
  schema: { params: OrganizationIdParams, querystring: DiscoveryDomainListQuery, response: { 200: DiscoveryDomainListResponse } },
  handler: async (request) => domains.list(request.tenant, request.params.id, request.query),
});
