import type { ManagementRoute } from '../route.js';
import { createEmailProvider } from './provider/create.js';
import { deleteEmailProvider } from './provider/delete.js';
import { getEmailProvider } from './provider/get.js';
import { EmailProviderService, type EmailProviderServiceContext } from './provider/service.js';
import { updateEmailProvider } from './provider/update.js';

/** /api/v2/emails/provider: the tenant's own SMTP server. */
export function emailRoutes(ctx: EmailProviderServiceContext): ManagementRoute[] {
  const provider = new EmailProviderService(ctx);
  return [getEmailProvider, createEmailProvider, updateEmailProvider, deleteEmailProvider].map((route) => route(ctx, provider));
}
