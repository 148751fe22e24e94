import { managementRoute, type ManagementRouteFactory } from '../../route.js';
import { PhoneProviderIdParams, PhoneProviderResponse } from './schema.js';
import type { PhoneProviderService } from './service.js';

/** GET /api/v2/branding/phone/providers/{id} */
export const getPhoneProvider: ManagementRouteFactory<PhoneProviderService> = (_ctx, providers) =>
  managementRoute({
    method: 'GET',
    url: '/branding/phone/providers/:id',
    config: { scopes: ['read:phone_providers'] },
    schema: { params: PhoneProviderIdParams, response: { 200: PhoneProviderResponse } },
    handler: async (request) => providers.get(request.tenant, request.params.id),
  });
