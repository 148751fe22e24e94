import { managementRoute, type ManagementRouteFactory } from '../route.js';
import { EmailTemplateResponse, TemplateParams } from './schema.js';
import type { EmailTemplateService } from './service.js';

/** GET /api/v2/email-templates/{templateName} */
export const getEmailTemplate: ManagementRouteFactory<EmailTemplateService> = (_ctx, templates) => managementRoute({
  method: 'GET',
  url: '/email-templates/:templateName',
  config: { scopes: ['read:email_templates'] },
  schema: { params: TemplateParams, response: { 200: EmailTemplateResponse } },
  handler: async (request) => templates.get(request.tenant, request.params.templateName),
});
