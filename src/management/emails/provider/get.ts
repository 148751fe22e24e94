import { managementRoute, type ManagementRouteFactory } from '../../route.js';
import { EmailProviderQuery, EmailProviderResponse } from './schema.js';
import type { EmailProviderService } from './service.js';

/** GET /api/v2/emails/provider (never the SMTP password). */
export const getEmailProvider: ManagementRouteFactory<EmailProviderService> = (_ctx, provider) => managementRoute({
  method: 'GET',
  url: '/emails/provider',
  config: { scopes: ['read:email_provider'] },
  schema: { querystring: EmailProviderQuery, response: { 200: EmailProviderResponse } },
  handler: async (request) => provider.get(request.tenant, request.query),
});
