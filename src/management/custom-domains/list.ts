import { Type } from '@sinclair/typebox';
import { managementRoute, type ManagementRouteFactory } from '../route.js';
import { CustomDomainResponse } from './schema.js';
import type { CustomDomainService } from './service.js';

/** GET /api/v2/custom-domains → the tenant's custom domains, without paging. */
export const listCustomDomains: ManagementRouteFactory<CustomDomainService> = (_ctx, domains) => managementRoute({
  method: 'GET',
  url: '/custom-domains',
  config: { scopes: ['read:custom_domains'] },
  schema: { response: { 200: Type.Array(CustomDomainResponse) } },
  handler: async (request) => domains.list(request.tenant),
});
