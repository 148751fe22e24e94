import { managementRoute, type ManagementRouteFactory } from '../route.js';
import { CustomDomainParams, CustomDomainResponse } from './schema.js';
import type { CustomDomainService } from './service.js';

/** GET /api/v2/custom-domains/{id} */
export const getCustomDomain: ManagementRouteFactory<CustomDomainService> = (_ctx, domains) => managementRoute({
  method: 'GET',
  url: '/custom-domains/:id',
  config: { scopes: ['read:custom_domains'] },
  schema: { params: CustomDomainParams, response: { 200: CustomDomainResponse } },
  handler: async (request) => domains.get(request.tenant, request.params.id),
});
