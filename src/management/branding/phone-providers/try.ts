import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../../route.js';
import { PhoneProviderIdParams, TryBody, TryProviderResponse } from './schema.js';
import type { PhoneProviderService } from './service.js';

/** POST /api/v2/branding/phone/providers/{id}/try → 202: a test text sent through the provider. */
export const tryPhoneProvider: ManagementRouteFactory<PhoneProviderService> = (_ctx, providers) =>
  managementRoute({
    method: 'POST',
    url: '/branding/phone/providers/:id/try',
    config: { scopes: ['create:phone_providers'] },
    schema: { consumes: [...BODY_CONTENT_TYPES], params: PhoneProviderIdParams, body: TryBody, response: { 202: TryProviderResponse } },
    handler: async (request, reply) => reply.code(202).send(await providers.try(request.tenant, request.params.id, request.body)),
  });
