import { managementRoute, type ManagementRouteFactory } from '../route.js';
import { CustomDomainParams, TestCustomDomainResponse } from './schema.js';
import type { CustomDomainService } from './service.js';

/** POST /api/v2/custom-domains/{id}/test → 200 `{success, message}`; 409 while the domain is not ready. */
export const testCustomDomain: ManagementRouteFactory<CustomDomainService> = (_ctx, domains) => managementRoute({
  method: 'POST',
  url: '/custom-domains/:id/test',
  config: { scopes: ['read:custom_domains'] },
  schema: { params: CustomDomainParams, response: { 200: TestCustomDomainResponse } },
  handler: async (request) => domains.test(request.tenant, request.params.id),
});
