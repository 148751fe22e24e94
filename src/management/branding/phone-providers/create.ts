import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../../route.js';
import { CreatePhoneProviderBody, PhoneProviderResponse } from './schema.js';
import type { PhoneProviderService } from './service.js';

/** POST /api/v2/branding/phone/providers → 201 (the credentials never answered); 409 when the tenant has one. */
export const createPhoneProvider: ManagementRouteFactory<PhoneProviderService> = (_ctx, providers) =>
  managementRoute({
    method: 'POST',
    url: '/branding/phone/providers',
    config: { scopes: ['create:phone_providers'] },
    schema: { consumes: [...BODY_CONTENT_TYPES], body: CreatePhoneProviderBody, response: { 201: PhoneProviderResponse } },
    handler: async (request, reply) => reply.code(201).send(await providers.create(request.tenant, request.body)),
  });
