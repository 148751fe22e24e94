import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../../route.js';
import { PhoneProviderIdParams, PhoneProviderResponse, UpdatePhoneProviderBody } from './schema.js';
import type { PhoneProviderService } from './service.js';

/** PATCH /api/v2/branding/phone/providers/{id}: members given replace the stored ones; the auth token kept unless given. */
export const updatePhoneProvider: ManagementRouteFactory<PhoneProviderService> = (_ctx, providers) =>
  managementRoute({
    method: 'PATCH',
    url: '/branding/phone/providers/:id',
    config: { scopes: ['update:phone_providers'] },
    schema: { consumes: [...BODY_CONTENT_TYPES], params: PhoneProviderIdParams, body: UpdatePhoneProviderBody, response: { 200: PhoneProviderResponse } },
    handler: async (request) => providers.update(request.tenant, request.params.id, request.body),
  });
