import { Type } from '@sinclair/typebox';
import { managementRoute, type ManagementRouteFactory } from '../../route.js';
import { PhoneProviderList } from './schema.js';
import type { PhoneProviderService } from './service.js';

/** GET /api/v2/branding/phone/providers → `{providers}`: the tenant's one provider, or none (`disabled` filters). */
export const listPhoneProviders: ManagementRouteFactory<PhoneProviderService> = (_ctx, providers) =>
  managementRoute({
    method: 'GET',
    url: '/branding/phone/providers',
    config: { scopes: ['read:phone_providers'] },
    schema: { querystring: Type.Object({ disabled: Type.Optional(Type.Boolean()) }, { additionalProperties: false }), response: { 200: PhoneProviderList } },
    handler: async (request) => providers.list(request.tenant, request.query.disabled),
  });
