import { BODY_CONTENT_TYPES, managementRoute, type ManagementRouteFactory } from '../../route.js';
import { PhoneProviderProtectionBody, PhoneProviderProtectionResponse } from '../schema.js';
import type { AttackProtectionService } from '../service.js';

/** PATCH /api/v2/attack-protection/phone-provider-protection: the backoff strategy of text messages (`exponential` or `none`). */
export const updatePhoneProviderProtection: ManagementRouteFactory<AttackProtectionService> = (_ctx, settings) => managementRoute({
  method: 'PATCH',
  url: '/attack-protection/phone-provider-protection',
  config: { scopes: ['update:attack_protection'] },
  schema: { consumes: [...BODY_CONTENT_TYPES], body: PhoneProviderProtectionBody, response: { 200: PhoneProviderProtectionResponse } },
  handler: async (request) => settings.update(request.tenant, 'phone_provider_protection', request.body),
});
