import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../route.js';
import { DefaultDomainResponse, SetDefaultDomainBody } from './schema.js';
import type { CustomDomainService } from './service.js';

/** GET /api/v2/custom-domains/default → the default custom domain (`is_default: true`), or `{domain}` for the canonical one. */
export const getDefaultCustomDomain: ManagementRouteFactory<CustomDomainService> = (_ctx, domains) => managementRoute({
  method: 'GET',
  url: '/custom-domains/default',
  config: { scopes: ['read:custom_domains'] },
  schema: { response: { 200: DefaultDomainResponse } },
  handler: async (request) => domains.getDefault(request.tenant),
});

/** PATCH /api/v2/custom-domains/default `{domain}` → 200 the new default; 400 for a domain that is neither a ready custom domain nor the canonical one. */
export const setDefaultCustomDomain: ManagementRouteFactory<CustomDomainService> = (_ctx, domains) => managementRoute({
  method: 'PATCH',
  url: '/custom-domains/default',
  config: { scopes: ['update:custom_domains'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], body: SetDefaultDomainBody, response: { 200: DefaultDomainResponse } },
  handler: async (request) => domains.setDefault(request.tenant, request.body.domain),
});
