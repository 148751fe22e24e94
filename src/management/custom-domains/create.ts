import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../route.js';
import { CreateCustomDomainBody, CustomDomainResponse } from './schema.js';
import type { CustomDomainService } from './service.js';

/** POST /api/v2/custom-domains → 201 with the new domain. */
export const createCustomDomain: ManagementRouteFactory<CustomDomainService> = (_ctx, domains) => managementRoute({
  method: 'POST',
  url: '/custom-domains',
  config: { scopes: ['create:custom_domains'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], body: CreateCustomDomainBody, response: { 201: CustomDomainResponse } },
  handler: async (request, reply) => reply.code(201).send(await domains.create(request.tenant, request.body)),
});
