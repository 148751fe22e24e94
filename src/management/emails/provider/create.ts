import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../../route.js';
import { CreateEmailProviderBody, EmailProviderResponse } from './schema.js';
import type { EmailProviderService } from './service.js';

/** POST /api/v2/emails/provider → 201. */
export const createEmailProvider: ManagementRouteFactory<EmailProviderService> = (_ctx, provider) => managementRoute({
  method: 'POST',
  url: '/emails/provider',
  config: { scopes: ['create:email_provider'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], body: CreateEmailProviderBody, response: { 201: EmailProviderResponse } },
  handler: async (request, reply) => reply.code(201).send(await provider.create(request.tenant, request.body)),
});
