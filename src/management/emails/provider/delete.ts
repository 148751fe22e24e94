import { managementRoute, NoContent, type ManagementRouteFactory } from '../../route.js';
import type { EmailProviderService } from './service.js';

/** DELETE /api/v2/emails/provider → 204; the tenant's mail goes through the process's transport again. */
export const deleteEmailProvider: ManagementRouteFactory<EmailProviderService> = (_ctx, provider) => managementRoute({
  method: 'DELETE',
  url: '/emails/provider',
  config: { scopes: ['delete:email_provider'] },
  schema: { response: { 204: NoContent } },
  handler: async (request, reply) => {
    await provider.remove(request.tenant);
    return reply.code(204).send();
  },
});
