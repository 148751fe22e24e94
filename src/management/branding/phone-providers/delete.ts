import { managementRoute, NoContent, type ManagementRouteFactory } from '../../route.js';
import { PhoneProviderIdParams } from './schema.js';
import type { PhoneProviderService } from './service.js';

/** DELETE /api/v2/branding/phone/providers/{id} → 204; texts go through the Guardian SMS factor's account again. */
export const deletePhoneProvider: ManagementRouteFactory<PhoneProviderService> = (_ctx, providers) =>
  managementRoute({
    method: 'DELETE',
    url: '/branding/phone/providers/:id',
    config: { scopes: ['delete:phone_providers'] },
    schema: { params: PhoneProviderIdParams, response: { 204: NoContent } },
    handler: async (request, reply) => {
      await providers.delete(request.tenant, request.params.id);
      return reply.code(204).send();
    },
  });
