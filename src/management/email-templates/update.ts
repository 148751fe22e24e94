import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../route.js';
import { EmailTemplateResponse, TemplateParams, UpdateEmailTemplateBody } from './schema.js';
import type { EmailTemplateService } from './service.js';

/** PATCH /api/v2/email-templates/{templateName}: the members given. */
export const updateEmailTemplate: ManagementRouteFactory<EmailTemplateService> = (_ctx, templates) => managementRoute({
  method: 'PATCH',
  url: '/email-templates/:templateName',
  config: { scopes: ['update:email_templates'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], params: TemplateParams, body: UpdateEmailTemplateBody, response: { 200: EmailTemplateResponse } },
  handler: async (request) => templates.update(request.tenant, request.params.templateName, request.body),
});
