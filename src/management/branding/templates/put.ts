import { BODY_CONTENT_TYPES, managementRoute, NoContent, type ManagementRouteFactory } from '../../route.js';
import { PutTemplateBody } from './schema.js';
import type { PageTemplateService } from './service.js';

/** PUT /api/v2/branding/templates/universal-login → 201 when created, 204 when replaced (the document's statuses). */
export const putPageTemplate: ManagementRouteFactory<PageTemplateService> = (_ctx, templates) =>
  managementRoute({
    method: 'PUT',
    url: '/branding/templates/universal-login',
    config: { scopes: ['update:branding'] },
    schema: { consumes: [...BODY_CONTENT_TYPES], body: PutTemplateBody, response: { 201: NoContent, 204: NoContent } },
    handler: async (request, reply) => reply.code((await templates.put(request.tenant, request.body)) ? 201 : 204).send(),
  });
