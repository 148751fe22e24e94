import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../route.js';
import { CustomDomainParams, CustomDomainResponse, UpdateCustomDomainBody } from './schema.js';
import type { CustomDomainService } from './service.js';

/** PATCH /api/v2/custom-domains/{id} */
export const updateCustomDomain: ManagementRouteFactory<CustomDomainService> = (_ctx, domains) => managementRoute({
  method: 'PATCH',
  url: '/custom-domains/:id',
  config: { scopes: ['update:custom_domains'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], params: CustomDomainParams, body: UpdateCustomDomainBody, response: { 200: CustomDomainResponse } },
  handler: async (request) => domains.update(request.tenant, request.params.id, request.body),
});
