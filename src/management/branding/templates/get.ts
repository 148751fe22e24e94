import { managementRoute, type ManagementRouteFactory } from '../../route.js';
import { TemplateResponse } from './schema.js';
import type { PageTemplateService } from './service.js';

/** GET /api/v2/branding/templates/universal-login → `{body}`; 404 when the tenant has none. */
export const getPageTemplate: ManagementRouteFactory<PageTemplateService> = (_ctx, templates) =>
  managementRoute({
    method: 'GET',
    url: '/branding/templates/universal-login',
    config: { scopes: ['read:branding'] },
    schema: { response: { 200: TemplateResponse } },
    handler: async (request) => templates.get(request.tenant),
  });
