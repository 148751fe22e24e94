import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../route.js';
import { EmailTemplateResponse, SetEmailTemplateBody } from './schema.js';
import type { EmailTemplateService } from './service.js';

/** POST /api/v2/email-templates → 200 (the document's status) with the template. */
export const createEmailTemplate: ManagementRouteFactory<EmailTemplateService> = (_ctx, templates) => managementRoute({
  method: 'POST',
  url: '/email-templates',
  config: { scopes: ['create:email_templates'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], body: SetEmailTemplateBody, response: { 200: EmailTemplateResponse } },
  handler: async (request) => templates.create(request.tenant, request.body),
});
