import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../../route.js';
import { EmailProviderResponse, UpdateEmailProviderBody } from './schema.js';
import type { EmailProviderService } from './service.js';

/** PATCH /api/v2/emails/provider */
export const updateEmailProvider: ManagementRouteFactory<EmailProviderService> = (_ctx, provider) => managementRoute({
  method: 'PATCH',
  url: '/emails/provider',
  config: { scopes: ['update:email_provider'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], body: UpdateEmailProviderBody, response: { 200: EmailProviderResponse } },
  handler: async (request) => provider.update(request.tenant, request.body),
});
