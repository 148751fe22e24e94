/** /api/v2/custom-domains */
import { Type } from '@sinclair/typebox';
import { BODY_CONTENT_TYPES, managementRoute, NoContent, type ManagementRoute } from '../route.js';
import { CreateCustomDomainBody, CustomDomainParams, CustomDomainResponse, UpdateCustomDomainBody } from './schema.js';
import { CustomDomainService, type CustomDomainServiceContext } from './service.js';

export function customDomainRoutes(ctx: CustomDomainServiceContext): ManagementRoute[] {
  const domains = new CustomDomainService(ctx);
  return [
    managementRoute({
      method: 'GET',
      url: '/custom-domains',
      config: { scopes: ['read:custom_domains'] },
      schema: { response: { 200: Type.Array(CustomDomainResponse) } },
      handler: async (request) => domains.list(request.tenant),
    }),
    managementRoute({
      method: 'POST',
      url: '/custom-domains',
      config: { scopes: ['create:custom_domains'] },
      schema: { consumes: [...BODY_CONTENT_TYPES], body: CreateCustomDomainBody, response: { 201: CustomDomainResponse } },
      handler: async (request, reply) => reply.code(201).send(await domains.create(request.tenant, request.body)),
    }),
    managementRoute({
      method: 'GET',
      url: '/custom-domains/:id',
      config: { scopes: ['read:custom_domains'] },
      schema: { params: CustomDomainParams, response: { 200: CustomDomainResponse } },
      handler: async (request) => domains.get(request.tenant, request.params.id),
    }),
    managementRoute({
      method: 'PATCH',
      url: '/custom-domains/:id',
      config: { scopes: ['update:custom_domains'] },
      schema: { consumes: [...BODY_CONTENT_TYPES], params: CustomDomainParams, body: UpdateCustomDomainBody, response: { 200: CustomDomainResponse } },
      handler: async (request) => domains.update(request.tenant, request.params.id, request.body),
    }),
    managementRoute({
      method: 'DELETE',
      url: '/custom-domains/:id',
      config: { scopes: ['delete:custom_domains'] },
      schema: { params: CustomDomainParams, response: { 204: NoContent } },
      handler: async (request, reply) => {
        await domains.delete(request.tenant, request.params.id);
        return reply.code(204).send();
      },
    }),
    managementRoute({
      method: 'POST',
      url: '/custom-domains/:id/verify',
      config: { scopes: ['create:custom_domains'] },
      schema: { params: CustomDomainParams, response: { 200: CustomDomainResponse } },
      handler: async (request) => domains.verify(request.tenant, request.params.id),
    }),
  ];
}
