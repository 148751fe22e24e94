import { managementRoute, type ManagementRouteFactory } from '../route.js';
import { CustomDomainParams, CustomDomainResponse } from './schema.js';
import type { CustomDomainService } from './service.js';

/** POST /api/v2/custom-domains/{id}/verify → the domain with its verification status. No body. */
export const verifyCustomDomain: ManagementRouteFactory<CustomDomainService> = (_ctx, domains) => managementRoute({
  method: 'POST',
  url: '/custom-domains/:id/verify',
  config: { scopes: ['create:custom_domains'] },
  schema: { params: CustomDomainParams, response: { 200: CustomDomainResponse } },
  handler: async (request) => domains.verify(request.tenant, request.params.id),
});
