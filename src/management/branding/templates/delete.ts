import { managementRoute, NoContent, type ManagementRouteFactory } from '../../route.js';
import type { PageTemplateService } from './service.js';

/** DELETE /api/v2/branding/templates/universal-login → 204 (the document lists no 404): the pages go back to the default document. */
export const deletePageTemplate: ManagementRouteFactory<PageTemplateService> = (_ctx, templates) =>
  managementRoute({
    method: 'DELETE',
    url: '/branding/templates/universal-login',
    config: { scopes: ['delete:branding'] },
    schema: { response: { 204: NoContent } },
    handler: async (request, reply) => {
      await templates.delete(request.tenant);
      return reply.code(204).send();
    },
  });
