import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../route.js';
import { EmailTemplateResponse, SetEmailTemplateBody, TemplateParams } from './schema.js';
import type { EmailTemplateService } from './service.js';

/** PUT /api/v2/email-templates/{templateName}: creates or replaces the template. */
export const setEmailTemplate: ManagementRouteFactory<EmailTemplateService> = (_ctx, templates) => managementRoute({
  method: 'PUT',
  url: '/email-templates/:templateName',
  config: { scopes: ['update:email_templates'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], params: TemplateParams, body: SetEmailTemplateBody, response: { 200: EmailTemplateResponse } },
  handler: async (request) => templates.set(request.tenant, request.params.templateName, request.body),
});
