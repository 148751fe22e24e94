import type { AppContext } from '../../domain/context.js';
import type { ManagementRoute } from '../route.js';
import { createEmailTemplate } from './create.js';
import { getEmailTemplate } from './get.js';
import { EmailTemplateService } from './service.js';
import { setEmailTemplate } from './set.js';
import { updateEmailTemplate } from './update.js';

/** /api/v2/email-templates: the tenant's templates of the mail Gatehouse sends. */
export function emailTemplateRoutes(ctx: AppContext): ManagementRoute[] {
  const templates = new EmailTemplateService(ctx);
  return [createEmailTemplate, getEmailTemplate, setEmailTemplate, updateEmailTemplate].map((route) => route(ctx, templates));
}
