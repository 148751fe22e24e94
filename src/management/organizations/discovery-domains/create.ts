import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../../route.js';
import { OrganizationIdParams } from '../schema.js';
import { CreateDiscoveryDomainBody, DiscoveryDomainResponse } from './schema.js';
import type { OrganizationDiscoveryDomainService } from './service.js';

/** POST /api/v2/organizations/{id}/discovery-domains → 201 with the domain and its verification record. */
export const createOrganizationDiscoveryDomain: ManagementRouteFactory<OrganizationDiscoveryDomainService> = (_ctx, domains) => managementRoute({
  method: 'POST',
  url: '/organizations/:id/discovery-domains',
  config: { scopes: ['create:organization_discovery_domains'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], params: OrganizationIdParams, body: CreateDiscoveryDomainBody, response: { 201: DiscoveryDomainResponse } },
  handler: async (request, reply) => reply.code(201).send(await domains.create(request.tenant, request.params.id, request.body)),
});
