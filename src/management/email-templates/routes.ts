import type { ManagementRoute } from '../route.js';
import { createEmailTemplate } from './create.js';
import { getEmailTemplate } from './get.js';
import { EmailTemplateService, type EmailTemplateServiceContext } from './service.js';
import { setEmailTemplate } from './set.js';
import { updateEmailTemplate } from './update.js';

/** /api/v2/email-templates: the tenant's templates of the mail Gatehouse sends. */
export function emailTemplateRoutes(ctx: EmailTemplateServiceContext): ManagementRoute[] {
  const templates = new EmailTemplateService(ctx);
  return [createEmailTemplate, getEmailTemplate, setEmailTemplate, updateEmailTemplate].map((route) => route(ctx, templates));
}
